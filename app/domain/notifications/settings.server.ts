// A shop's mail settings: sender name, reply-to, sending domain with its DKIM key, time zone and
// quiet hours, the kinds turned off (docs/decisions/103-dkim.md). The DKIM private key is made
// here (RSA 2048, node:crypto) when a sending domain is first set, and stored sealed.
import { SECRET_FIELD, audited, diffFields } from "../audit/audit.server";
import { generateKeyPairSync } from "node:crypto";
import { z } from "zod";
import { prisma } from "../../db.server";
import { open, seal } from "../../infra/secret-box.server";
import { isEssential, messageKind } from "./catalogue";

export interface MailSettings {
  senderName: string | null;
  replyTo: string | null;
  sendingDomain: string | null;
  dkimSelector: string | null;
  dkimPublicKey: string | null;
  timezone: string;
  quietStart: number | null;
  quietEnd: number | null;
  disabledKinds: string[];
}

export const DEFAULT_MAIL_SETTINGS: Readonly<MailSettings> = Object.freeze({
  senderName: null,
  replyTo: null,
  sendingDomain: null,
  dkimSelector: null,
  dkimPublicKey: null,
  timezone: "UTC",
  quietStart: null,
  quietEnd: null,
  disabledKinds: [],
});

const validZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

const hour = z.number().int().min(0).max(23).nullable();
export const MailSettingsInput = z
  .object({
    senderName: z.string().trim().max(80).nullable(),
    replyTo: z.string().trim().email("reply-to must be an e-mail address").max(254).nullable(),
    sendingDomain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "sending domain must be a domain name like mail.example.com")
      .nullable(),
    timezone: z.string().refine(validZone, "unknown time zone"),
    quietStart: hour,
    quietEnd: hour,
    disabledKinds: z.array(z.string()),
  })
  .refine((s) => (s.quietStart === null) === (s.quietEnd === null), { message: "quiet hours need both a start and an end", path: ["quietEnd"] })
  .refine((s) => s.disabledKinds.every((k) => messageKind(k) && !isEssential(k)), {
    message: "essential messages cannot be turned off",
    path: ["disabledKinds"],
  });
export type MailSettingsInput = z.infer<typeof MailSettingsInput>;

const dkimContext = (shopId: string) => `notification-dkim:${shopId}`;

export async function mailSettings(shopId: string): Promise<MailSettings> {
  const row = await prisma.notificationSettings.findUnique({ where: { shopId } });
  if (!row) return { ...DEFAULT_MAIL_SETTINGS, disabledKinds: [] };
  return {
    senderName: row.senderName,
    replyTo: row.replyTo,
    sendingDomain: row.sendingDomain,
    dkimSelector: row.dkimSelector,
    dkimPublicKey: row.dkimPublicKey,
    timezone: row.timezone,
    quietStart: row.quietStart,
    quietEnd: row.quietEnd,
    disabledKinds: row.disabledKinds,
  };
}

/** Saves the settings; a new sending domain gets a new DKIM key pair (selector svc<yyyymm>). */
export async function saveMailSettings(shopId: string, input: MailSettingsInput, now = new Date()): Promise<MailSettings> {
  const before = await prisma.notificationSettings.findUnique({ where: { shopId } });
  let dkim: { dkimSelector: string | null; dkimPrivateKey: string | null; dkimPublicKey: string | null } = {
    dkimSelector: before?.dkimSelector ?? null,
    dkimPrivateKey: before?.dkimPrivateKey ?? null,
    dkimPublicKey: before?.dkimPublicKey ?? null,
  };
  if (!input.sendingDomain) dkim = { dkimSelector: null, dkimPrivateKey: null, dkimPublicKey: null };
  else if (input.sendingDomain !== before?.sendingDomain || !dkim.dkimPrivateKey) {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    dkim = {
      dkimSelector: `svc${now.toISOString().slice(0, 7).replace("-", "")}`,
      dkimPrivateKey: seal(privateKey.export({ type: "pkcs8", format: "pem" }).toString(), dkimContext(shopId)),
      dkimPublicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
    };
  }
  const data = { ...input, ...dkim };
  // One audit row with the fields that changed; the DKIM key never enters it (docs/decisions/125-audit-log.md).
  await audited({ shopId, action: "settings.mail", target: { type: "settings", id: "mail" } }, async (tx) => {
    const after = await tx.notificationSettings.upsert({ where: { shopId }, create: { shopId, ...data }, update: data });
    const fields = Object.keys(input).filter((k) => !SECRET_FIELD.test(k)) as (keyof typeof after & string)[];
    return { result: undefined, changes: diffFields(before, after, fields) };
  });
  return mailSettings(shopId);
}

/** The DKIM signing key of a shop with a sending domain (opened from its seal), or null. */
export async function dkimKey(shopId: string): Promise<{ domainName: string; keySelector: string; privateKey: string } | null> {
  const row = await prisma.notificationSettings.findUnique({ where: { shopId }, select: { sendingDomain: true, dkimSelector: true, dkimPrivateKey: true } });
  if (!row?.sendingDomain || !row.dkimSelector || !row.dkimPrivateKey) return null;
  return { domainName: row.sendingDomain, keySelector: row.dkimSelector, privateKey: open(row.dkimPrivateKey, dkimContext(shopId)) };
}

/** The DNS TXT record the merchant publishes for DKIM. */
export function dkimDnsRecord(s: Pick<MailSettings, "sendingDomain" | "dkimSelector" | "dkimPublicKey">): { name: string; type: "TXT"; value: string } | null {
  if (!s.sendingDomain || !s.dkimSelector || !s.dkimPublicKey) return null;
  return { name: `${s.dkimSelector}._domainkey.${s.sendingDomain}`, type: "TXT", value: `v=DKIM1; k=rsa; p=${s.dkimPublicKey}` };
}

/** The local wall-clock hour of `at` in `timezone`. */
function localHour(at: Date, timezone: string): { hour: number; minute: number; second: number } {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: timezone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).formatToParts(
    at,
  );
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return { hour: get("hour"), minute: get("minute"), second: get("second") };
}

const inQuiet = (h: number, start: number, end: number) => (start < end ? h >= start && h < end : h >= start || h < end);

/**
 * When a message due at `due` may go: `due` itself outside quiet hours, else the end of them in
 * the shop's time zone (hour by hour, so a daylight-saving change lands on a real local hour).
 */
export function afterQuietHours(due: Date, s: Pick<MailSettings, "timezone" | "quietStart" | "quietEnd">): Date {
  if (s.quietStart === null || s.quietEnd === null || s.quietStart === s.quietEnd) return due;
  const { hour: h, minute, second } = localHour(due, s.timezone);
  if (!inQuiet(h, s.quietStart, s.quietEnd)) return due;
  let t = new Date(due.getTime() - (minute * 60 + second) * 1000 - due.getUTCMilliseconds());
  for (let i = 0; i < 48; i++) {
    t = new Date(t.getTime() + 3_600_000);
    if (!inQuiet(localHour(t, s.timezone).hour, s.quietStart, s.quietEnd)) return t;
  }
  return due;
}

// The local mailbox: an SMTP catcher (smtp-server + mailparser) on loopback and a web page that
// lists and renders what was sent, for development, the demo and the tests (docs/decisions/104).
// Not production code: like the simulator it lives in its own top-level folder.
//
//   SMTP  127.0.0.1:<smtpPort>   accepts everything, except recipients told to refuse (550/451)
//   HTTP  127.0.0.1:<webPort>    /                      the list (newest first)
//                                /messages/<id>         one message rendered (HTML, or the text)
//                                /messages/<id>.eml     the raw message
//                                GET    /api/messages   JSON, what tests read
//                                GET    /api/count      { count } (with countOnly: nothing else is kept)
//                                GET    /api/accepted?message_id=<id>  { accepted }: did SMTP answer 250
//                                       for it (the relay ledger; kept when the box is emptied)
//                                DELETE /api/messages   empties the box
//                                POST   /api/refuse     { address, code: 550 | 451 | null }
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";
import { simpleParser } from "mailparser";

export interface CaughtMessage {
  id: number;
  receivedAt: string;
  envelopeFrom: string | null;
  envelopeTo: string[];
  messageId: string | null;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  headers: Record<string, string>;
  raw: string;
}

export interface Mailbox {
  smtpPort: number;
  webPort: number;
  url: string;
  messages: CaughtMessage[];
  /** Refuses RCPT TO for `address` with `code` (550 = permanent, 451 = try later); null accepts again. */
  refuse(address: string, code: 550 | 451 | null): void;
  /** Stops the SMTP listener only (the web page stays up): "the SMTP server is down". */
  stopSmtp(): Promise<void>;
  startSmtp(): Promise<void>;
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Each header as it was written (unfolded), by lower-cased name; the first of a repeated one wins. */
function headerMap(lines: readonly { key: string; line: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, line } of lines) {
    const value = line
      .slice(line.indexOf(":") + 1)
      .replace(/\r?\n[ \t]+/g, " ")
      .trim();
    out[key] ??= value;
  }
  return out;
}

export async function startMailbox(opts: { smtpPort: number; webPort: number; host?: string; quiet?: boolean; countOnly?: boolean }): Promise<Mailbox> {
  const host = opts.host ?? "127.0.0.1";
  const messages: CaughtMessage[] = [];
  const refusals = new Map<string, 550 | 451>();
  let nextId = 1;
  // countOnly (the benchmark's catcher): accept and count, keep nothing, parse nothing.
  let counted = 0;
  // The acceptance ledger: every Message-ID this server answered 250 for (GET /api/accepted), which
  // the app asks about a message whose sender stopped mid-send (docs/decisions/133-mail-in-doubt.md).
  const accepted = new Set<string>();
  const bare = (id: string) => id.trim().replace(/^<|>$/g, "");

  const makeSmtp = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      size: 10 * 1024 * 1024,
      onRcptTo(address: SMTPServerAddress, _session, callback) {
        const code = refusals.get(address.address.toLowerCase());
        if (!code) return callback();
        const err = Object.assign(new Error(code === 550 ? "5.1.1 Mailbox unavailable: no such user here" : "4.2.1 Mailbox busy, try again later"), {
          responseCode: code,
        });
        return callback(err);
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          if (opts.countOnly) {
            const id = /^Message-ID:\s*(\S+)/im.exec(Buffer.concat(chunks.slice(0, 4)).toString("latin1"))?.[1];
            if (id) accepted.add(bare(id));
            counted++;
            return callback(null, `Ok: counted ${counted}`);
          }
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              const id = nextId++;
              if (parsed.messageId) accepted.add(bare(parsed.messageId));
              messages.push({
                id,
                receivedAt: new Date().toISOString(),
                envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                envelopeTo: session.envelope.rcptTo.map((r) => r.address),
                messageId: parsed.messageId ?? null,
                from: parsed.from?.text ?? "",
                to: Array.isArray(parsed.to) ? parsed.to.map((t) => t.text).join(", ") : (parsed.to?.text ?? ""),
                subject: parsed.subject ?? "",
                text: parsed.text ?? "",
                html: typeof parsed.html === "string" ? parsed.html : null,
                headers: headerMap(parsed.headerLines),
                raw: raw.toString("utf8"),
              });
              callback(null, `Ok: queued as ${id}`);
            })
            .catch((err: Error) => callback(err));
        });
      },
    });

  let smtp = makeSmtp();
  let smtpPort = opts.smtpPort;
  const listenSmtp = () =>
    new Promise<void>((resolve, reject) => {
      smtp.once("error", reject);
      smtp.listen(smtpPort, host, () => {
        smtpPort = (smtp.server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listenSmtp();
  smtp.on("error", (err) => opts.quiet || console.error("mailbox smtp:", err.message));
  let smtpUp = true;

  const web = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://mailbox");
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      res.end(body);
    };
    if (url.pathname === "/api/messages" && req.method === "GET") return send(200, "application/json", JSON.stringify(messages));
    if (url.pathname === "/api/accepted" && req.method === "GET") {
      const id = url.searchParams.get("message_id");
      if (!id) return send(400, "application/json", JSON.stringify({ error: "message_id is required" }));
      return send(200, "application/json", JSON.stringify({ accepted: accepted.has(bare(id)) }));
    }
    if (url.pathname === "/api/count") return send(200, "application/json", JSON.stringify({ count: opts.countOnly ? counted : messages.length }));
    if (url.pathname === "/api/messages" && req.method === "DELETE") {
      messages.length = 0;
      return send(200, "application/json", '{"ok":true}');
    }
    if (url.pathname === "/api/refuse" && req.method === "POST") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        try {
          const { address, code } = JSON.parse(body) as { address: string; code: 550 | 451 | null };
          mailbox.refuse(address, code);
          send(200, "application/json", '{"ok":true}');
        } catch {
          send(400, "application/json", '{"error":"expected { address, code }"}');
        }
      });
      return;
    }
    const one = /^\/messages\/(\d+)(\.eml)?$/.exec(url.pathname);
    if (one) {
      const m = messages.find((x) => x.id === Number(one[1]));
      if (!m) return send(404, "text/plain", "no such message");
      if (one[2]) return send(200, "message/rfc822", m.raw);
      // The message's own HTML is shown as it arrived, in a sandboxed frame (no scripts).
      const bodyHtml = m.html
        ? `<iframe title="Message body" sandbox srcdoc="${esc(m.html)}" style="width:100%;min-height:60vh;border:1px solid #ccc"></iframe>`
        : `<pre>${esc(m.text)}</pre>`;
      return send(
        200,
        "text/html; charset=utf-8",
        page(
          `Message ${m.id}`,
          `<p><a href="/">All messages</a> · <a href="/messages/${m.id}.eml">Raw</a></p><h1>${esc(m.subject)}</h1>
<dl><dt>From</dt><dd>${esc(m.from)}</dd><dt>To</dt><dd>${esc(m.to)}</dd><dt>Return path</dt><dd>${esc(m.envelopeFrom ?? "")}</dd><dt>Received</dt><dd>${esc(m.receivedAt)}</dd></dl>${bodyHtml}`,
        ),
      );
    }
    if (url.pathname === "/") {
      const rows = [...messages]
        .reverse()
        .map((m) => `<tr><td><a href="/messages/${m.id}">${esc(m.subject || "(no subject)")}</a></td><td>${esc(m.to)}</td><td>${esc(m.receivedAt)}</td></tr>`)
        .join("");
      return send(
        200,
        "text/html; charset=utf-8",
        page(
          "Mailbox",
          `<h1>Mailbox</h1><p>${messages.length} message(s) caught on SMTP port ${smtpPort}. Nothing here leaves this machine.</p>
<table><thead><tr><th scope="col">Subject</th><th scope="col">To</th><th scope="col">Received</th></tr></thead><tbody>${rows}</tbody></table>`,
        ),
      );
    }
    send(404, "text/plain", "not found");
  });
  await new Promise<void>((resolve) => web.listen(opts.webPort, host, resolve));
  const webPort = (web.address() as AddressInfo).port;

  const mailbox: Mailbox = {
    smtpPort,
    webPort,
    url: `http://${host}:${webPort}`,
    messages,
    refuse(address, code) {
      if (code === null) refusals.delete(address.toLowerCase());
      else refusals.set(address.toLowerCase(), code);
    },
    async stopSmtp() {
      if (!smtpUp) return;
      smtpUp = false;
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
    async startSmtp() {
      if (smtpUp) return;
      smtp = makeSmtp();
      await listenSmtp();
      smtpUp = true;
    },
    async close() {
      await mailbox.stopSmtp();
      web.closeAllConnections();
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
  return mailbox;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;max-width:60rem}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}dt{font-weight:600}</style></head>
<body><main>${body}</main></body></html>`;
}

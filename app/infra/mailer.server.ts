// The SMTP hand-over: one pooled nodemailer transport per process, to SMTP_URL
// (docs/decisions/101-mail-outbox.md). Pooled connections are reused across messages; DKIM keys
// are given per message (a shop's own key when it has a sending domain).
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "../env.server";
import { log } from "./log.server";

let transport: Transporter | undefined;

export function mailTransport(): Transporter {
  if (!transport) {
    const config = env();
    transport = nodemailer.createTransport({
      url: config.SMTP_URL,
      pool: true,
      maxConnections: config.SMTP_MAX_CONNECTIONS,
      maxMessages: 1000,
      // A dead server must fail the attempt quickly (the message is deferred and retried), not hang a job.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    transport.on("error", (err) => log.warn("smtp transport error", { err }));
  }
  return transport;
}

export function closeMailTransport(): void {
  transport?.close();
  transport = undefined;
}

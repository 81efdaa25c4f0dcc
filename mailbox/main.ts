// `npm run mailbox`: the local SMTP catcher and its web page (mailbox/server.ts), on loopback only.
import { applyLocalDefaults } from "../app/infra/local-env";
import { startMailbox } from "./server";

applyLocalDefaults();
const smtpPort = Number(process.env.MAILBOX_SMTP_PORT ?? 1025);
const webPort = Number(process.env.MAILBOX_WEB_PORT ?? 1080);
// MAILBOX_COUNT_ONLY=1: accept and count only (the benchmark's catcher, bench/notifications.ts).
const box = await startMailbox({ smtpPort, webPort, countOnly: process.env.MAILBOX_COUNT_ONLY === "1" });
console.log(`mailbox ready: SMTP 127.0.0.1:${box.smtpPort}, open ${box.url}`);
const stop = () => void box.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

// `npm run mailbox`: the local SMTP catcher and its web page (mailbox/server.ts), on loopback only.
import { applyLocalDefaults } from "../app/infra/local-env";
import { startMailbox } from "./server";

applyLocalDefaults();
const smtpPort = Number(process.env.MAILBOX_SMTP_PORT ?? 1025);
const webPort = Number(process.env.MAILBOX_WEB_PORT ?? 1080);
const box = await startMailbox({ smtpPort, webPort });
console.log(`mailbox ready: SMTP 127.0.0.1:${box.smtpPort}, open ${box.url}`);
const stop = () => void box.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

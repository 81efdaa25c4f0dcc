// The browser the e2e tests drive: Debian's chromium, installed with apt when it is missing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** `apt-get update` then `apt-get install -y chromium`, as root or through passwordless sudo. */
function aptInstallChromium(): void {
  const prefix = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  for (const args of [
    ["apt-get", "update", "-qq"],
    ["apt-get", "install", "-y", "-qq", "chromium"],
  ]) {
    const [cmd, ...rest] = [...prefix, ...args];
    // apt's progress (hundreds of lines) is dropped; its errors still show.
    spawnSync(cmd, rest, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  }
}

/**
 * The e2e tests drive Debian's chromium (playwright.config.ts: Playwright's own browser download
 * cannot run on these machines). A fresh machine lacks it, so `npm test` installs it with apt
 * when it is missing at the default path. A CHROMIUM_PATH the caller chose is never installed
 * over: it must exist.
 */
export function ensureChromium(path: string, opts: { chosen: boolean; install?: () => void }): void {
  if (existsSync(path)) return;
  if (opts.chosen) throw new Error(`CHROMIUM_PATH=${path} does not exist.`);
  console.log("[test] Debian's chromium is missing: installing it with apt-get (the browser tests need it)");
  (opts.install ?? aptInstallChromium)();
  if (!existsSync(path)) {
    throw new Error(`chromium could not be installed at ${path}: run \`apt-get install -y chromium\` as root, or set CHROMIUM_PATH.`);
  }
}

// Debian's PgBouncer for tests and local trials of running behind a pooler in transaction mode
// (docs/decisions/145-connections-pgbouncer.md): installed with apt when it is missing (like
// scripts/chromium.ts installs the browser), started on a port of the caller's with a
// configuration written to a directory of its own, in front of the local PostgreSQL.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const PGBOUNCER_BIN = "/usr/sbin/pgbouncer";

/** `apt-get install -y pgbouncer` when the binary is missing, as root or through passwordless sudo. */
export function ensurePgbouncer(): void {
  if (existsSync(PGBOUNCER_BIN)) return;
  const prefix = process.getuid?.() === 0 ? [] : ["sudo", "-n"];
  for (const args of [
    ["apt-get", "update", "-qq"],
    ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "pgbouncer"],
  ]) {
    const [cmd, ...rest] = [...prefix, ...args];
    spawnSync(cmd, rest, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  }
  if (!existsSync(PGBOUNCER_BIN)) throw new Error("pgbouncer could not be installed: run `apt-get install -y pgbouncer` as root");
  // The package's own service is not wanted: these instances run on ports of their own.
  spawnSync(process.getuid?.() === 0 ? "service" : "true", ["pgbouncer", "stop"], { stdio: "ignore" });
}

export interface Pgbouncer {
  port: number;
  /** `postgresql://user@127.0.0.1:<port>/<database>` through the pooler. */
  url(database: string): string;
  stop(): Promise<void>;
}

/**
 * A PgBouncer in transaction mode on `port`, passing every database name through to the
 * PostgreSQL at `upstream` (host:port), with at most `poolSize` server connections per database.
 * Runs as a daemon; stop() ends it by its pid file. Root cannot run PgBouncer: it drops to `runAs`.
 */
export async function startPgbouncer(opts: {
  port: number;
  upstream?: { host: string; port: number };
  user?: string;
  poolSize?: number;
  runAs?: string;
}): Promise<Pgbouncer> {
  ensurePgbouncer();
  const user = opts.user ?? "postgres";
  const up = opts.upstream ?? { host: "127.0.0.1", port: 5432 };
  const dir = mkdtempSync(path.join(tmpdir(), "pgbouncer-"));
  chmodSync(dir, 0o777);
  const pidfile = path.join(dir, "pgbouncer.pid");
  const ini = path.join(dir, "pgbouncer.ini");
  writeFileSync(path.join(dir, "userlist.txt"), `"${user}" ""\n`);
  writeFileSync(
    ini,
    [
      "[databases]",
      `* = host=${up.host} port=${up.port}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${opts.port}`,
      `unix_socket_dir =`,
      "auth_type = trust",
      `admin_users = ${user}`,
      `auth_file = ${path.join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${opts.poolSize ?? 4}`,
      "max_client_conn = 500",
      // node-postgres sends none of these, but other clients (psql) may.
      "ignore_startup_parameters = extra_float_digits,options",
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      `pidfile = ${pidfile}`,
      "",
    ].join("\n"),
  );
  const asRoot = process.getuid?.() === 0;
  const r = spawnSync(PGBOUNCER_BIN, ["-d", ...(asRoot ? ["-u", opts.runAs ?? "postgres"] : []), ini], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`pgbouncer did not start: ${r.stderr || r.stdout}`);
  // The daemon forks before it listens: wait for the port.
  const deadline = Date.now() + 10_000;
  while (!(await accepts(opts.port))) {
    if (Date.now() > deadline) throw new Error(`pgbouncer did not listen on ${opts.port}: ${readFileSync(path.join(dir, "pgbouncer.log"), "utf8")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port: opts.port,
    url: (database) => `postgresql://${user}@127.0.0.1:${opts.port}/${database}`,
    // SIGINT first: PgBouncer waits for its clients to go (an immediate stop drops their
    // connections under them, and pg reports each as an error); SIGTERM after 5 s at most.
    stop: async () => {
      if (!existsSync(pidfile)) return;
      const pid = Number(readFileSync(pidfile, "utf8").trim());
      const signal = (sig: NodeJS.Signals | 0) => {
        try {
          process.kill(pid, sig);
          return true;
        } catch {
          return false; // already gone
        }
      };
      if (!signal("SIGINT")) return;
      for (const until = Date.now() + 5_000; Date.now() < until;) {
        await new Promise((r) => setTimeout(r, 50));
        if (!signal(0)) return;
      }
      signal("SIGTERM");
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

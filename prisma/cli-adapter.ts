// The driver adapter used ONLY by the Prisma CLI (migrate deploy/diff, db push), never at runtime.
//
// Why it exists: @prisma/adapter-pg 6.19 cannot read the catalog column types `name` (oid 19),
// `"char"` (oid 18) and `name[]` (oid 1003) that the JS schema engine selects while introspecting
// (upstream prisma/orm#27403). We present them as `text` / `text[]`. And it runs migration
// scripts whole (see wholeScripts). See docs/decisions/001.
//
// The config is given as separate fields, not a connection string: when the engine builds its
// temporary shadow database it copies the config, and a connection string would override the
// shadow database name (migrations would then land in the real database, P3006).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";

const TEXT = 25;
const TEXT_ARRAY = 1009;
const REMAP: Record<number, number> = { 19: TEXT, 18: TEXT, 1003: TEXT_ARRAY };

type Field = { dataTypeID: number };
type Result = { fields?: Field[] } | undefined;

function remapFields(result: Result): Result {
  for (const field of result?.fields ?? []) field.dataTypeID = REMAP[field.dataTypeID] ?? field.dataTypeID;
  return result;
}

function patchClient(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const [config] = args;
    if (config && typeof config === "object" && "types" in config) {
      const inner = (config as { types: { getTypeParser: (oid: number, f?: string) => unknown } }).types;
      args[0] = { ...config, types: { getTypeParser: (oid: number, f?: string) => inner.getTypeParser(oid === 1003 ? TEXT_ARRAY : oid, f) } };
    }
    const last = args.length - 1;
    if (typeof args[last] === "function") {
      const callback = args[last] as (err: unknown, res: Result) => void;
      args[last] = (err: unknown, res: Result) => callback(err, remapFields(res));
      return query(...args);
    }
    const out = query(...args);
    return out instanceof Promise ? out.then(remapFields) : out;
  };
}

function patchedPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ ...config, idleTimeoutMillis: 100, allowExitOnIdle: true });
  pool.on("connect", patchClient);
  return pool;
}

export function connectionFields(url: string): pg.PoolConfig {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username || "postgres"),
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: decodeURIComponent(u.pathname.replace(/^\//, "")) || "postgres",
  };
}

type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;

// The adapter's executeScript splits a migration on every ";", which cuts a plpgsql body
// ($$ ... ; ... $$) apart. Postgres runs a multi-statement script natively (simple query
// protocol, one implicit transaction: all or nothing), so the script is sent whole.
function wholeScripts(adapter: Adapter): Adapter {
  const pool = adapter.underlyingDriver() as pg.Pool;
  const fail = (adapter as unknown as { onError(err: unknown): never }).onError.bind(adapter);
  adapter.executeScript = async (script: string) => {
    try {
      await pool.query(script);
    } catch (err) {
      fail(err);
    }
  };
  return adapter;
}

class CliPrismaPg extends PrismaPg {
  constructor(private readonly fields: pg.PoolConfig) {
    super(patchedPool(fields), { disposeExternalPool: true });
  }

  override async connect() {
    return wholeScripts(await super.connect());
  }

  // Same as upstream, but the shadow database also gets the patched pool.
  override async connectToShadowDb() {
    const main = await new PrismaPg(patchedPool(this.fields), { disposeExternalPool: true }).connect();
    const database = `prisma_migrate_shadow_db_${randomUUID()}`;
    await main.executeScript(`CREATE DATABASE "${database}"`);
    const shadow = wholeScripts(await new PrismaPg(patchedPool({ ...this.fields, database }), { disposeExternalPool: true }).connect());
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await main.executeScript(`DROP DATABASE "${database}"`);
      await main.dispose();
    };
    return shadow;
  }
}

export function cliAdapter(url: string) {
  return new CliPrismaPg(connectionFields(url));
}

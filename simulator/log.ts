// Structured JSON-lines logger of the simulator process: the same line format as the app's
// (app/infra/log.server.ts), kept apart because the simulator imports nothing of the app but the
// API version and the local defaults (docs/decisions/092-rooms-and-layers.md).
// Never pass secrets, keys or tokens to it: the redactor below is a safety net for known-dangerous field names.

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;
const SECRET_FIELD = /(secret|token|password|authorization|api_?key|signature|hmac|email)/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_FIELD.test(k) ? "[redacted]" : v;
  return out;
}

function write(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  const threshold = LEVELS[(process.env.LOG_LEVEL as Level) ?? "info"] ?? LEVELS.info;
  if (LEVELS[level] < threshold) return;
  const err = fields.err instanceof Error ? { err: { name: fields.err.name, message: fields.err.message, stack: fields.err.stack } } : {};
  const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...redact(fields), ...err });
  (level === "error" || level === "warn" ? process.stderr : process.stdout).write(line + "\n");
}

export const log = {
  debug: (msg: string, f?: Record<string, unknown>) => write("debug", msg, f),
  info: (msg: string, f?: Record<string, unknown>) => write("info", msg, f),
  warn: (msg: string, f?: Record<string, unknown>) => write("warn", msg, f),
  error: (msg: string, f?: Record<string, unknown>) => write("error", msg, f),
};

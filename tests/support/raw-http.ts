// Requests over real HTTP exactly as written: the path's bytes are sent untouched (fetch would
// normalise them), bodies can be chunked, and a connection reset is reported, not thrown away.
import { request as httpRequest } from "node:http";
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: Buffer; chunked?: boolean; chunkSize?: number } = {},
): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.body && !opts.chunked) headers["Content-Length"] = String(opts.body.byteLength);
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parse(text) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (opts.body) {
      const size = opts.chunkSize ?? 64 * 1024;
      for (let i = 0; i < opts.body.byteLength; i += size) req.write(opts.body.subarray(i, i + size));
    }
    req.end();
  });
}

/**
 * Bytes written on a bare socket as they are (CONNECT, absolute-form targets, and what Node's own
 * client refuses to send); the answer is read until the server closes the connection.
 */
export function rawSocket(
  baseUrl: string,
  head: string | Buffer,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; headers: Record<string, string>; text: string; json: any }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(head));
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (c: string) => (data += c));
    socket.on("error", reject);
    socket.on("close", () => {
      const [top, ...rest] = data.split("\r\n\r\n");
      const [statusLine, ...headerLines] = (top ?? "").split("\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? "")?.[1] ?? 0);
      const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const text = rest.join("\r\n\r\n");
      resolve({ status, headers, text, json: parse(text) });
    });
    socket.setTimeout(15_000, () => socket.destroy());
  });
}

import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// The scripted model server's HTTP plumbing: a loopback listener, JSON bodies both ways and an abortable pause.

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Listens on 127.0.0.1; resolves with the bound port. */
export function listen(server: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

type JsonRead = { ok: true; value: unknown } | { ok: false; error: string };

export async function readJson(req: IncomingMessage): Promise<JsonRead> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const part of req) {
      const buffer = part as Buffer;
      size += buffer.length;
      if (size > MAX_BODY_BYTES) return { ok: false, error: `request body larger than ${MAX_BODY_BYTES} bytes` };
      parts.push(buffer);
    }
  } catch (error) {
    return { ok: false, error: `request body unreadable: ${String(error)}` };
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(parts).toString("utf8")) };
  } catch (error) {
    return { ok: false, error: `request body is not JSON: ${String(error)}` };
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.destroyed || res.writableEnded) return;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  res.writeHead(status, {
    "content-type": typeof value === "string" ? "text/plain; charset=utf-8" : "application/json",
    ...headers,
  });
  res.end(text);
}

/** Waits `ms`; false when the client went away first. */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

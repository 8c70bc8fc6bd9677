import type { Readable } from "node:stream";

export type CappedBody =
  | { readonly kind: "complete"; readonly bytes: Uint8Array }
  | { readonly kind: "too_large" }
  | { readonly kind: "failed"; readonly error: unknown };

/** Reads a body chunk by chunk and stops (destroying the stream) the moment it passes `maxBytes`. */
export async function readCappedBody(body: Readable, maxBytes: number): Promise<CappedBody> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      total += bytes.byteLength;
      if (total > maxBytes) {
        discardBody(body);
        return { kind: "too_large" };
      }
      chunks.push(bytes);
    }
  } catch (error) {
    return { kind: "failed", error };
  }
  return { kind: "complete", bytes: new Uint8Array(Buffer.concat(chunks, total)) };
}

/**
 * Drops a body without reading it. undici reports a destroyed, unread body as an `error` event
 * (RequestAbortedError); that abort is our own decision, so the listener only absorbs it.
 */
export function discardBody(body: Readable): void {
  body.on("error", () => undefined);
  body.destroy();
}

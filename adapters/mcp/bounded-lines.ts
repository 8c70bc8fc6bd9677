import { Transform, type TransformCallback } from "node:stream";

/** What the server is told about a refused message: its size and, when it could be read, its JSON-RPC id. */
export interface OversizeMessage {
  readonly bytes: number;
  readonly id?: number | string;
}

const EDGE = 512;

/**
 * Passes stdin on to the MCP SDK's stdio transport one whole line (one JSON-RPC message) at a time, and drops
 * a line longer than `maxLineBytes` instead. The SDK's own limit (10 MiB of buffered input) closes the
 * transport, and with it every task of the server; below it, only the one message is lost: `onOversize` gets
 * its size and id, so the server can answer that request with an error and log why.
 */
export function boundedLines(maxLineBytes: number, onOversize: (message: OversizeMessage) => void): Transform {
  let line: Buffer[] = [];
  let length = 0;
  let skipping: { bytes: number; head: string; tail: Buffer } | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      let at = 0;
      while (at < chunk.length) {
        const newline = chunk.indexOf(0x0a, at);
        const end = newline === -1 ? chunk.length : newline + 1;
        const piece = chunk.subarray(at, end);
        at = end;
        if (skipping === undefined && length + piece.length > maxLineBytes) {
          const held = Buffer.concat(line);
          skipping = { bytes: length, head: held.subarray(0, EDGE).toString("utf8"), tail: Buffer.alloc(0) };
          line = [];
          length = 0;
        }
        if (skipping !== undefined) {
          skipping.bytes += piece.length;
          skipping.tail = Buffer.concat([skipping.tail, piece]).subarray(-EDGE);
          if (newline === -1) continue;
          const id = lastIdIn(skipping.tail.toString("utf8")) ?? lastIdIn(skipping.head);
          onOversize(id === undefined ? { bytes: skipping.bytes } : { bytes: skipping.bytes, id });
          skipping = undefined;
          continue;
        }
        line.push(piece);
        length += piece.length;
        if (newline !== -1) {
          this.push(Buffer.concat(line));
          line = [];
          length = 0;
        }
      }
      done();
    },
  });
}

/** SDK clients write the id last (`{"method":…,"params":…,"jsonrpc":"2.0","id":7}`), so the last match wins. */
function lastIdIn(text: string): number | string | undefined {
  const match = [...text.matchAll(/"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,128}")\s*[,}]/g)].at(-1);
  if (match?.[1] === undefined) return undefined;
  return match[1].startsWith('"') ? (JSON.parse(match[1]) as string) : Number(match[1]);
}

import { EventEmitter } from "node:events";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { SupervisorFrames } from "./supervisor-frames.ts";

function frame(type: number, payload: string | Buffer): Buffer {
  const body = typeof payload === "string" ? Buffer.from(payload) : payload;
  const header = Buffer.alloc(5);
  header.writeUInt8(type, 0);
  header.writeUInt32BE(body.length, 1);
  return Buffer.concat([header, body]);
}

/** What the frames of `wire`, fed in pieces of `size` bytes, come out as: events whole, each stream's bytes joined. */
async function decode(wire: Buffer, size: number) {
  const socket = new EventEmitter();
  const frames = new SupervisorFrames(socket as unknown as Socket);
  const events: string[] = [];
  const out: Record<1 | 2, Buffer[]> = { 1: [], 2: [] };
  const first = frames.first();
  for (let at = 0; at < wire.length; at += size) {
    socket.emit("data", wire.subarray(at, at + size));
    if (at === 0) frames.listen({ onEvent: (e) => events.push(e), onOutput: (fd, b) => out[fd].push(Buffer.from(b)) });
  }
  return { first: await first, events, stdout: Buffer.concat(out[1]), stderr: Buffer.concat(out[2]) };
}

describe("SupervisorFrames", () => {
  const big = Buffer.alloc(70_000, "y");
  const wire = Buffer.concat([
    frame(0, '{"event":"started","pid":7}'),
    frame(1, "hello "),
    frame(2, "warn\n"),
    frame(1, big),
    frame(1, ""),
    frame(0, '{"event":"exit","code":0,"signal":null,"stopped":[],"problems":["é"]}'),
  ]);

  it.each([1, 2, 5, 6, 4096, 65_536, wire.length])(
    "fed %i bytes at a time: the first event, every later event whole, and every output byte in order",
    async (size) => {
      const got = await decode(wire, size);
      expect(got.first).toBe('{"event":"started","pid":7}');
      expect(got.events).toEqual(['{"event":"exit","code":0,"signal":null,"stopped":[],"problems":["é"]}']);
      expect(got.stdout.equals(Buffer.concat([Buffer.from("hello "), big]))).toBe(true);
      expect(got.stderr.toString()).toBe("warn\n");
    },
  );
});

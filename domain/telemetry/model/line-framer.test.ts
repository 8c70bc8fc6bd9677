import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createLineFramer,
  DEFAULT_MAX_LINE_BYTES,
  flushFramer,
  pushBytes,
  type FramedPiece,
  type LineFramerState,
} from "./line-framer.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

function frameAll(chunks: readonly Uint8Array[], max: number): { pieces: FramedPiece[]; states: LineFramerState[] } {
  let state = createLineFramer(max);
  const pieces: FramedPiece[] = [];
  const states: LineFramerState[] = [];
  for (const chunk of chunks) {
    const step = pushBytes(state, chunk);
    state = step.state;
    states.push(state);
    pieces.push(...step.pieces);
  }
  pieces.push(...flushFramer(state).pieces);
  return { pieces, states };
}

/** Lines as the consumer sees them: overlong pieces joined back, with how each was delivered. */
function logicalLines(pieces: readonly FramedPiece[]): string[] {
  const out: string[] = [];
  let open: number[] | undefined;
  for (const piece of pieces) {
    if (piece.kind === "line") {
      out.push(`line${piece.terminated ? "" : "(unterminated)"}:${[...piece.bytes].join(",")}`);
      continue;
    }
    if (piece.first) open = [];
    open?.push(...piece.bytes);
    if (piece.terminated) {
      out.push(`overlong:${(open ?? []).join(",")}`);
      open = undefined;
    }
  }
  if (open !== undefined) out.push(`overlong(unterminated):${open.join(",")}`);
  return out;
}

/** Re-serialises the pieces: must reproduce the input exactly. */
function reassemble(pieces: readonly FramedPiece[]): number[] {
  return pieces.flatMap((p) => [...p.bytes, ...(p.terminated ? [0x0a] : [])]);
}

describe("line framer", () => {
  it("splits on LF across chunks and keeps CR and empty lines", () => {
    const { pieces } = frameAll([bytes("ab"), bytes("c\r\n\nd"), bytes("e\n")], 64);
    expect(pieces.map((p) => [p.kind, text(p.bytes), p.terminated])).toEqual([
      ["line", "abc\r", true],
      ["line", "", true],
      ["line", "de", true],
    ]);
  });

  it("flushes an unterminated last line without inventing an LF", () => {
    const { pieces } = frameAll([bytes("one\ntwo")], 64);
    expect(pieces.map((p) => [text(p.bytes), p.terminated])).toEqual([
      ["one", true],
      ["two", false],
    ]);
  });

  it("a line of exactly the bound is parsed; one byte more is passed on as an over-long line, never dropped", () => {
    const exact = frameAll([bytes("12345678\n")], 8).pieces;
    expect(exact).toEqual([{ kind: "line", bytes: bytes("12345678"), terminated: true }]);
    const over = frameAll([bytes("1234"), bytes("56789"), bytes("ab"), bytes("c\nok\n")], 8).pieces;
    expect(over.map((p) => [p.kind, text(p.bytes), p.terminated, p.kind === "overlong" ? p.first : null])).toEqual([
      ["overlong", "123456789", false, true],
      ["overlong", "ab", false, false],
      ["overlong", "c", true, false],
      ["line", "ok", true, null],
    ]);
  });

  it("rejects a bound that is not a positive integer", () => {
    expect(() => createLineFramer(0)).toThrow(RangeError);
    expect(createLineFramer().maxLineBytes).toBe(DEFAULT_MAX_LINE_BYTES);
  });

  it("property: output is independent of chunking, reproduces the input, and the carry stays bounded", () => {
    const alphabet = fc.constantFrom(0x0a, 0x61, 0x62, 0x0d, 0xe2, 0x1e);
    const input = fc.array(alphabet, { maxLength: 300 }).map((a) => Uint8Array.from(a));
    fc.assert(
      fc.property(
        input,
        fc.array(fc.nat(300), { maxLength: 12 }),
        fc.integer({ min: 1, max: 20 }),
        (data, cuts, max) => {
          const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points].map((from, i) => data.subarray(from, points[i] ?? data.length));
          const whole = frameAll([data], max);
          const split = frameAll(chunks, max);
          expect(logicalLines(split.pieces)).toEqual(logicalLines(whole.pieces));
          expect(reassemble(split.pieces)).toEqual([...data]);
          for (const state of split.states) expect(state.carryBytes).toBeLessThanOrEqual(max);
          for (const piece of split.pieces)
            if (piece.kind === "line") expect(piece.bytes.length).toBeLessThanOrEqual(max);
        },
      ),
    );
  });

  it("does not mutate earlier states (framing is pure)", () => {
    const first = pushBytes(createLineFramer(16), bytes("abc")).state;
    const a = pushBytes(first, bytes("d\n")).pieces;
    const b = pushBytes(first, bytes("X\n")).pieces;
    expect([text(a[0]?.bytes ?? new Uint8Array()), text(b[0]?.bytes ?? new Uint8Array())]).toEqual(["abcd", "abcX"]);
  });
});

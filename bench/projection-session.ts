/**
 * The session the projection benches project: deterministic, ~5.5 KiB per entry, mostly tool payloads, one
 * payload in ten with multi-byte words and a base64 image every 100 turns.
 */
import type { SourceBlock, SourceMessage } from "../domain/projection/model/source-message.ts";

/** Deterministic xorshift so every run projects the same session. */
function prng(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

const WORDS = [
  "const",
  "return",
  "function",
  "await",
  "import",
  "export",
  "value",
  "error",
  "result",
  "state",
  "é",
  "日本",
  "😀",
];
/** Code-like text; one payload in ten carries some multi-byte words, as real tool output sometimes does. */
function prose(rand: () => number, bytes: number): string {
  const parts: string[] = [];
  const vocabulary = rand() < 0.1 ? WORDS.length : 10;
  let n = 0;
  while (n < bytes) {
    const w = WORDS[Math.floor(rand() * (rand() < 0.95 ? 10 : vocabulary))] ?? "x";
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(rand() < 0.5 ? " " : "\n");
}

/** user → assistant(thinking, text, tool call) → tool result → assistant text, repeated. */
export function benchSession(entries: number): SourceMessage[] {
  const rand = prng(20_000);
  const out: SourceMessage[] = [];
  for (let turn = 0; out.length < entries; turn++) {
    out.push({ role: "user", content: prose(rand, 200 + Math.floor(rand() * 400)) });
    const id = `call-${turn}`;
    const blocks: SourceBlock[] = [
      { type: "thinking", thinking: prose(rand, 800 + Math.floor(rand() * 1600)) },
      { type: "text", text: prose(rand, 200 + Math.floor(rand() * 600)) },
      {
        type: "toolCall",
        id,
        name: ["read", "bash", "edit", "grep"][turn % 4] ?? "read",
        arguments: { path: `src/f${turn}.ts`, content: prose(rand, 1000 + Math.floor(rand() * 3000)) },
      },
    ];
    out.push({ role: "assistant", content: blocks });
    const result: SourceBlock[] = [{ type: "text", text: prose(rand, 10_000 + Math.floor(rand() * 10_000)) }];
    if (turn % 100 === 99)
      result.push({ type: "image", mimeType: "image/png", data: Buffer.from(prose(rand, 30_000)).toString("base64") });
    out.push({ role: "toolResult", toolCallId: id, toolName: "read", content: result });
    out.push({ role: "assistant", content: [{ type: "text", text: prose(rand, 300 + Math.floor(rand() * 700)) }] });
  }
  return out.slice(0, entries);
}

import { describe, expect, it } from "vitest";
import { boundedLines, type OversizeMessage } from "./bounded-lines.ts";

async function through(chunks: readonly string[], max: number) {
  const refused: OversizeMessage[] = [];
  const stream = boundedLines(max, (m) => refused.push(m));
  const out: string[] = [];
  stream.on("data", (line: Buffer) => out.push(line.toString("utf8")));
  for (const chunk of chunks) stream.write(Buffer.from(chunk));
  stream.end();
  await new Promise((resolve) => stream.on("end", resolve));
  return { out, refused };
}

describe("boundedLines", () => {
  it("passes whole lines however the bytes are split, and drops only the line over the limit", async () => {
    const big = `{"method":"tools/call","params":{"id":"inner","x":"${"y".repeat(100)}"},"jsonrpc":"2.0","id":7}\n`;
    const { out, refused } = await through(
      ['{"a":1}\n{"b"', ":2}\n", big.slice(0, 50), big.slice(50), '{"c":3}\n'],
      64,
    );
    expect(out).toEqual(['{"a":1}\n', '{"b":2}\n', '{"c":3}\n']);
    expect(refused).toEqual([{ bytes: Buffer.byteLength(big), id: 7 }]);
  });

  it("reads a string id, and reports none when the message has none", async () => {
    const withId = `{"id":"req-1","p":"${"z".repeat(80)}"}\n`;
    const { refused } = await through([withId, `${"q".repeat(90)}\n`], 32);
    expect(refused).toEqual([{ bytes: withId.length, id: "req-1" }, { bytes: 91 }]);
  });
});

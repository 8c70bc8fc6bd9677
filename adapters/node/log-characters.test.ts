import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realRuntime, runRequest } from "./real-runtime.test-support.ts";

// bg_logs on a real task: multi-byte characters and invalid bytes, read in small delta and tail slices.
const TEXT = "héllo wörld — ✓ naïve 日本語 😀 end\n".repeat(3);

describe("bg_logs slices on character boundaries (real runtime)", () => {
  it("stitches delta reads of any size back into the exact text, never splitting a character", async () => {
    const dir = mkdtempSync(join(tmpdir(), "log-chars-"));
    const { runtime } = realRuntime(dir);
    const started = await runtime.start(runRequest(`printf '%s' '${TEXT}'`));
    if (!started.ok) throw new Error(started.error.message);
    await runtime.waitForTerminal(started.value.id);
    for (const maxBytes of [4, 5, 7, 11, 50]) {
      let offset = 0;
      let stitched = "";
      for (let reads = 0; reads < 200; reads++) {
        const slice = await runtime.readLog(started.value.id, { maxBytes, tail: false, offset });
        if (!slice.ok) throw new Error(slice.error.message);
        expect(slice.value.invalid).toBeUndefined();
        stitched += slice.value.text;
        if (slice.value.plan.nextOffset === offset) break;
        offset = slice.value.plan.nextOffset;
      }
      expect(stitched, `maxBytes ${maxBytes}`).toBe(TEXT);
    }
    const tail = await runtime.readLog(started.value.id, { maxBytes: 6, tail: true });
    if (!tail.ok) throw new Error(tail.error.message);
    expect(tail.value.text).not.toContain("\uFFFD");
    expect(TEXT.endsWith(tail.value.text)).toBe(true);
  });

  it("reports invalid bytes with their count and first offset, and the file keeps them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "log-chars-"));
    const { runtime } = realRuntime(dir);
    const started = await runtime.start(runRequest(String.raw`printf 'ok \377\376 then \300\257 end\n'`));
    if (!started.ok) throw new Error(started.error.message);
    const done = await runtime.waitForTerminal(started.value.id);
    const slice = await runtime.readLog(started.value.id, { maxBytes: 100, tail: false });
    if (!slice.ok) throw new Error(slice.error.message);
    expect(slice.value.invalid).toEqual({ bytes: 4, firstOffset: 3 });
    const file = readFileSync(join(dir, "tasks", `${started.value.id}.output`));
    expect([...file.subarray(3, 5)]).toEqual([0xff, 0xfe]);
    const exact = await runtime.readLog(started.value.id, { maxBytes: 100, tail: false, encoding: "base64" });
    if (!exact.ok) throw new Error(exact.error.message);
    expect(Buffer.from(exact.value.text, "base64").equals(file)).toBe(true);
    expect(done.ok ? done.value.status : "").toBe("completed");
  });
});

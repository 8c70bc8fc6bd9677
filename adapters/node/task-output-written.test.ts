import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NodeTaskSupervisor } from "./node-task-supervisor.ts";
import { realRuntime, runRequest } from "./real-runtime.test-support.ts";

const dir = mkdtempSync(join(tmpdir(), "written-output-"));
const supervisor = new NodeTaskSupervisor();
afterAll(() => {
  supervisor.close();
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

/** The numbers of the whole lines of `text` (its cut first and last line left out). */
function wholeLines(text: string): number[] {
  return text.split("\n").slice(1, -1).map(Number);
}

describe("bg_run output written by the task supervisor itself", () => {
  it("a tail read while the ring wraps under it is never torn: the supervisor holds its writes while the host reads", async () => {
    const { runtime } = realRuntime(dir, { supervisor, config: { outputCapBytes: 8192 } });
    const started = await runtime.start(runRequest("seq 100000000 999999999"));
    if (!started.ok) throw new Error(started.error.message);
    const id = started.value.id;
    await expect
      .poll(() => runtime.find(id).ok && (runtime.find(id) as { value: { bytesWritten: number } }).value.bytesWritten, {
        timeout: 10_000,
        interval: 10,
      })
      .toBeGreaterThan(100_000);
    const torn: string[] = [];
    let reads = 0;
    for (; reads < 300; reads++) {
      const slice = await runtime.readLog(id, { maxBytes: 3000, tail: true });
      if (!slice.ok) throw new Error(slice.error.message);
      const lines = wholeLines(slice.value.text);
      if (lines.length < 290 || lines.some((n, i) => i > 0 && n !== (lines[i - 1] as number) + 1))
        torn.push(slice.value.text);
    }
    await runtime.kill(id);
    const ended = await runtime.waitForTerminal(id);
    expect({ reads, torn: torn.slice(0, 1) }).toEqual({ reads: 300, torn: [] });
    expect(ended.ok && ended.value.status).toBe("killed");
  });

  it("past a kill cap the task is stopped, nothing beyond the cap is stored, and every produced byte is counted", async () => {
    const { runtime } = realRuntime(dir, { supervisor, config: { outputCapBytes: 4096 } });
    const started = await runtime.start(runRequest("head -c 100000 /dev/zero; sleep 30", { onOutputCap: "kill" }));
    if (!started.ok) throw new Error(started.error.message);
    const ended = await runtime.waitForTerminal(started.value.id);
    if (!ended.ok) throw new Error(ended.error.message);
    // How much `head` wrote before the stop reached it depends on the machine's load (8,192 bytes was seen):
    // whatever it was, every byte of it is counted, and only the cap's worth is stored.
    const produced = ended.value.output?.producedBytes ?? 0;
    expect(produced).toBeGreaterThan(4096);
    expect(produced).toBeLessThanOrEqual(100_000);
    expect(ended.value).toMatchObject({
      status: "failed",
      killKind: "output_cap",
      bytesWritten: produced,
      output: { producedBytes: produced, keptBytes: 4096, elidedBytes: produced - 4096, capAction: "kill" },
    });
    expect(readFileSync(join(dir, "tasks", `${started.value.id}.output`)).equals(Buffer.alloc(4096))).toBe(true);
  });

  it("a capped file ends as head, marker and tail in order, as when the host wrote it", async () => {
    const { runtime } = realRuntime(dir, { supervisor, config: { outputCapBytes: 8192 } });
    const started = await runtime.start(runRequest("seq 100001 200000; echo done >&2"));
    if (!started.ok) throw new Error(started.error.message);
    const ended = await runtime.waitForTerminal(started.value.id);
    if (!ended.ok) throw new Error(ended.error.message);
    const produced = 100_000 * 7 + 5;
    expect(ended.value).toMatchObject({ status: "completed", bytesWritten: produced });
    const file = readFileSync(join(dir, "tasks", `${started.value.id}.output`), "latin1");
    const [head, tail] = file.split(/\n\[pi-background-tasks: \d+ bytes elided here[^\n]*\n/);
    expect(head?.startsWith("100001\n100002\n")).toBe(true);
    expect(tail?.endsWith("199999\n200000\ndone\n")).toBe(true);
    const lines = wholeLines(tail ?? "").slice(0, -1); // the last whole line is "done"
    expect(lines.every((n, i) => i === 0 || n === (lines[i - 1] as number) + 1)).toBe(true);
    expect(lines.at(-1)).toBe(200_000);
    expect(file.length).toBe(8192);
  });
});

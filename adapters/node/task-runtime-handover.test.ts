import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseTaskMetadata } from "../../domain/tasks/model/task-metadata.ts";
import { NodeTaskSupervisor } from "./node-task-supervisor.ts";
import { realRuntime, runRequest } from "./real-runtime.test-support.ts";

const dir = mkdtempSync(join(tmpdir(), "handover-"));
const stop = join(dir, "stop");
afterAll(() => {
  writeFileSync(stop, ""); // the task ends even when the test failed before telling it to
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe("a surviveReload task the runtime lets go of at shutdown, under the real task supervisor", () => {
  it("while it prints: each byte is in the output file or the spill file, in order, and the metadata says so", async () => {
    const supervisor = new NodeTaskSupervisor();
    const { runtime } = realRuntime(dir, { supervisor, config: { outputCapBytes: 64 << 20 } });
    // It prints numbered lines without pause until told to stop, so the hand-over surely lands mid-stream.
    const started = await runtime.start(
      runRequest(`i=0; while [ ! -e '${stop}' ]; do echo $i; i=$((i+1)); done`, { surviveReload: true }),
    );
    if (!started.ok) throw new Error(started.error.message);
    const file = (suffix: string) => join(dir, "tasks", `${started.value.id}${suffix}`);
    const size = (suffix: string) => () => statSync(file(suffix), { throwIfNoEntry: false })?.size ?? 0;
    await expect.poll(size(".output"), { timeout: 10_000, interval: 5 }).toBeGreaterThan(0);
    await runtime.shutdown(); // while it prints
    supervisor.close();
    await expect.poll(size(".after-host.output"), { timeout: 10_000, interval: 5 }).toBeGreaterThan(0);
    writeFileSync(stop, "");
    await expect.poll(size(".exit.json"), { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);

    const metadata = parseTaskMetadata(readFileSync(file(".json")));
    expect(metadata.ok && metadata.value).toMatchObject({ status: "running", detachedInOrder: true });
    const output = readFileSync(file(".output"));
    const spill = readFileSync(file(".after-host.output"));
    expect(metadata.ok && metadata.value.output?.producedBytes).toBe(output.length);
    const lines = Buffer.concat([output, spill]).toString().split("\n");
    const count = lines.length - 1;
    expect(lines).toEqual([...Array.from({ length: count }, (_, i) => String(i)), ""]);
    expect(JSON.parse(readFileSync(file(".exit.json"), "utf8"))).toMatchObject({ lostOutputBytes: 0 });
  });
});

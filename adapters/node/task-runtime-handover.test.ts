import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseTaskMetadata } from "../../domain/tasks/model/task-metadata.ts";
import { NodeTaskSupervisor } from "./node-task-supervisor.ts";
import { realRuntime, runRequest } from "./real-runtime.test-support.ts";

const dir = mkdtempSync(join(tmpdir(), "handover-"));
afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));

describe("a surviveReload task the runtime lets go of at shutdown, under the real task supervisor", () => {
  it("while it prints: each byte is in the output file or the spill file, in order, and the metadata says so", async () => {
    const supervisor = new NodeTaskSupervisor();
    const { runtime } = realRuntime(dir, { supervisor, config: { outputCapBytes: 64 << 20 } });
    const total = 3_000_000;
    const started = await runtime.start(
      runRequest(`yes 0123456789 | head -c ${total}; sleep 1`, { surviveReload: true }),
    );
    if (!started.ok) throw new Error(started.error.message);
    const file = (suffix: string) => join(dir, "tasks", `${started.value.id}${suffix}`);
    await expect.poll(() => statSync(file(".output")).size, { timeout: 10_000, interval: 5 }).toBeGreaterThan(0);
    await runtime.shutdown(); // while it prints
    supervisor.close();
    await expect.poll(() => statSync(file(".exit.json")).size > 0, { timeout: 10_000, interval: 50 }).toBe(true);

    const metadata = parseTaskMetadata(readFileSync(file(".json")));
    expect(metadata.ok && metadata.value).toMatchObject({ status: "running", detachedInOrder: true });
    const output = readFileSync(file(".output"));
    const spill = readFileSync(file(".after-host.output"));
    expect(metadata.ok && metadata.value.output?.producedBytes).toBe(output.length);
    expect({ sum: output.length + spill.length, spilled: spill.length > 0 }).toEqual({ sum: total, spilled: true });
    const expected = Buffer.from("0123456789\n".repeat(total / 11 + 1)).subarray(0, total);
    expect(Buffer.concat([output, spill]).equals(expected)).toBe(true);
    expect(JSON.parse(readFileSync(file(".exit.json"), "utf8"))).toMatchObject({ lostOutputBytes: 0 });
  });
});

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { NodeTaskSupervisor } from "./node-task-supervisor.ts";
import { joinedCalls, straceWorks } from "./strace.test-support.ts";
import { POLICY } from "./task-supervisor.test-support.ts";

if (!straceWorks) console.warn("SKIPPED: the task supervisor's durability trace needs a working strace");

const dir = mkdtempSync(join(tmpdir(), "supervisor-trace-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A supervisor whose Node runs under strace, tracing the flushes and the writes of every thread. */
function tracedSupervisor(trace: string): NodeTaskSupervisor {
  const strace = execFileSync("sh", ["-c", "command -v strace"], { encoding: "utf8" }).trim();
  const wrapper = join(dir, "node-under-strace");
  const calls = "trace=fdatasync,fsync,pwrite64,write,writev";
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec ${strace} -f -qq -y -s 400 -e ${calls} -o ${trace} ${process.execPath} "$@"\n`,
    { mode: 0o700 },
  );
  return new NodeTaskSupervisor(wrapper);
}

describe.skipIf(!straceWorks)("the task supervisor's end (system-call trace)", () => {
  it("writes the exit record in place and flushes it before it reports the task's end", async () => {
    const trace = join(dir, "trace");
    const supervisor = tracedSupervisor(trace);
    const output = join(dir, "t.output");
    writeFileSync(output, "", { mode: 0o600 });
    const files = {
      exitPath: join(dir, "t.exit.json"),
      spillPath: join(dir, "t.spill"),
      spillCapBytes: 1 << 20,
      output: { path: output, capBytes: 1 << 20, capAction: "keep_head_and_tail" as const },
    };
    try {
      const wrapped = supervisor.wrap({ kind: "shell", command: "echo hi", shell: "/bin/sh" }, {}, files, POLICY);
      const launched = await supervisor.launch(wrapped, dir);
      if (!launched.ok) throw new Error(launched.error.message);
      expect(await launched.value.exited).toMatchObject({ code: 0 });
    } finally {
      supervisor.close();
    }
    expect(readFileSync(output, "utf8")).toBe("hi\n");
    const reportedEnd = /\\"event\\":\\"exit\\"/;
    // strace writes its lines as the calls return; the report is the supervisor's last write for the task.
    await vi.waitFor(() => expect(readFileSync(trace, "utf8")).toMatch(reportedEnd), { timeout: 10_000 });
    const calls = joinedCalls(readFileSync(trace, "utf8"));
    const first = (pattern: RegExp) => calls.findIndex((call) => pattern.test(call));
    const reported = first(reportedEnd);
    const recordWritten = first(/^pwrite64\(\d+<[^>]*\/t\.exit\.json>, "\{/);
    const recordFlushed = first(/^fdatasync\(\d+<[^>]*\/t\.exit\.json>\)/);
    expect(recordWritten).toBeGreaterThanOrEqual(0);
    expect(recordFlushed).toBeGreaterThan(recordWritten);
    expect(recordFlushed).toBeLessThan(reported);
  });
});

import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher, type FakeScript } from "../../../adapters/fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { ok } from "../../shared/model/result.ts";
import { normalizeRunArguments } from "../model/run-request.ts";
import { parseTaskMetadata } from "../model/task-metadata.ts";
import { TaskRuntime } from "./task-runtime.ts";

const SCRIPTS: Record<string, FakeScript> = {
  ok: { stdout: ["fine\n"], exit: { code: 0 } },
  fails: { stderr: ["bad\n"], exit: { code: 3 } },
  segv: { exit: { signal: "SIGSEGV" } },
  strays: { exit: { code: 0 }, grandchild: { holdsPipes: true } },
  broken: { spawnError: "ENOENT" },
  forever: {},
};

describe("metadata the runtime writes reads back through parseTaskMetadata", () => {
  it("for every terminal shape and for running tasks", async () => {
    const clock = new FakeClock();
    const launcher = new FakeProcessLauncher({
      clock,
      script: (spec) => SCRIPTS[spec.command.kind === "shell" ? spec.command.command : ""] ?? {},
    });
    const files = new InMemoryFileCommitter();
    const runtime = new TaskRuntime(
      {
        launcher,
        files,
        clock,
        random: new SeededRandomSource(5),
        notifier: { deliver: async () => ok(undefined) },
        warn: () => undefined,
      },
      {
        cwd: "/w",
        taskDir: "/w/t",
        displayDir: "t",
        env: {},
        outputCapBytes: 1 << 20,
        killGraceMs: 100,
        shellExitGraceMs: 2_000,
        retainTasks: 100,
      },
    );
    const ids: string[] = [];
    for (const command of Object.keys(SCRIPTS)) {
      const request = normalizeRunArguments({
        command,
        isAgent: command === "ok",
        description: `runs ${command}`,
        timeoutSeconds: 60,
      });
      const started = request.ok ? await runtime.start(request.value) : undefined;
      if (started === undefined || !started.ok) throw new Error("start failed");
      ids.push(started.value.id);
    }
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(2_000); // the shell-exit grace of the strays task
    const running = ids[ids.length - 1] ?? "";
    expect(parseTaskMetadata(files.contents(`/w/t/${running}.json`) ?? new Uint8Array())).toMatchObject({
      ok: true,
      value: { id: running, status: "running" },
    });
    const killed = await runtime.kill(running);
    expect(killed.ok).toBe(true);
    const finals = await Promise.all(ids.map((id) => runtime.waitForTerminal(id)));
    expect(finals.map((f) => f.ok && f.value.status)).toEqual([
      "completed",
      "failed",
      "failed",
      "completed",
      "failed",
      "killed",
    ]);
    for (const id of ids) {
      const current = runtime.find(id);
      if (!current.ok) throw new Error(`${id} is gone`);
      expect(parseTaskMetadata(files.contents(`/w/t/${id}.json`) ?? new Uint8Array())).toEqual({
        ok: true,
        value: current.value,
      });
    }
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXIT_RECORD_SCHEMA, type ExitRecord } from "./exit-record.ts";
import {
  orphanTerminal,
  planOrphan,
  reattachedSnapshot,
  recoveredOutput,
  type OrphanFacts,
  type RecoveryAction,
} from "./orphan-recovery.ts";
import { outputLayout } from "./output-layout.ts";
import type { TaskSnapshot } from "./task-snapshot.ts";

const CAP = 64 * 1024;
const TAG = "0123456789abcdef0123456789abcdef";

function task(overrides: Partial<TaskSnapshot> = {}): TaskSnapshot {
  return {
    schema_version: "pi-background-tasks.task.v1",
    id: "b1234abcd",
    name: "job",
    command: "make",
    status: "running",
    outputPath: ".pi/tasks/s-1-77/b1234abcd.output",
    cwd: "/w",
    startTime: 1_000,
    bytesWritten: 0,
    output: { producedBytes: 0, keptBytes: 0, elidedBytes: 0, capBytes: CAP, capAction: "keep_head_and_tail" },
    isAgent: false,
    notified: false,
    notifyOnCompletion: true,
    triggerOnCompletion: true,
    hostPid: 77,
    hostStartedAt: "boot/5",
    processTag: TAG,
    pid: 78,
    ...overrides,
  };
}

const exit = (overrides: Partial<ExitRecord> = {}): ExitRecord => ({
  schema_version: EXIT_RECORD_SCHEMA,
  code: 7,
  signal: null,
  endedAt: 5_000,
  hostGone: true,
  spilledBytes: 10,
  lostOutputBytes: 0,
  ...overrides,
});

const facts = (overrides: Partial<OrphanFacts> = {}): OrphanFacts => ({
  hostAlive: false,
  exit: undefined,
  liveProcesses: 0,
  ...overrides,
});

describe("planOrphan", () => {
  const cases: Array<[string, TaskSnapshot, OrphanFacts, "reattach" | "kill", RecoveryAction]> = [
    [
      "finished tasks are left alone",
      task({ status: "completed" }),
      facts(),
      "reattach",
      { kind: "leave", reason: "not_running" },
    ],
    [
      "a live host keeps its tasks",
      task(),
      facts({ hostAlive: true, liveProcesses: 2 }),
      "reattach",
      { kind: "leave", reason: "host_alive" },
    ],
    [
      "an exit record finalizes",
      task(),
      facts({ exit: exit() }),
      "reattach",
      { kind: "finalize", stopLeftovers: false },
    ],
    [
      "an exit record with leftovers finalizes and stops them",
      task(),
      facts({ exit: exit(), liveProcesses: 1 }),
      "reattach",
      { kind: "finalize", stopLeftovers: true },
    ],
    [
      "a surviveReload task's leftovers are not stopped",
      task({ surviveReload: true }),
      facts({ exit: exit(), liveProcesses: 1 }),
      "kill",
      { kind: "finalize", stopLeftovers: false },
    ],
    [
      "gone without a record finalizes as unknown",
      task(),
      facts(),
      "reattach",
      { kind: "finalize", stopLeftovers: false },
    ],
    ["still running is reattached by default", task(), facts({ liveProcesses: 2 }), "reattach", { kind: "reattach" }],
    [
      "still running is stopped under PI_BG_ORPHANS=kill",
      task(),
      facts({ liveProcesses: 2 }),
      "kill",
      { kind: "kill" },
    ],
  ];
  it.each(cases)("%s", (_label, t, f, policy, expected) => {
    expect(planOrphan(t, f, policy)).toEqual(expected);
  });

  it("never leaves a task of a dead host running with nothing to watch", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.nat(3),
        fc.constantFrom("reattach" as const, "kill" as const),
        fc.boolean(),
        (recorded, live, policy, tagged) => {
          const t = task(tagged ? {} : { processTag: undefined });
          const action = planOrphan(
            t,
            facts({ exit: recorded ? exit() : undefined, liveProcesses: tagged ? live : 0 }),
            policy,
          );
          expect(action.kind).not.toBe("leave");
          if (action.kind === "reattach") expect(t.processTag).toBeDefined();
        },
      ),
    );
  });
});

describe("recoveredOutput", () => {
  it("a crashed host's file below the cap is a plain prefix", () => {
    expect(recoveredOutput(task(), 100, 5)).toEqual({
      fileBytes: 100,
      capturedBytes: 100,
      headOnly: false,
      spilledBytes: 5,
    });
  });

  it("at the cap the unsettled ring is left out: only the head counts", () => {
    const r = recoveredOutput(task(), CAP, 0);
    expect(r).toMatchObject({ capturedBytes: outputLayout(CAP).headBytes, headOnly: true });
  });

  it("a file closed by a host that let go on purpose is complete even at the cap, and so is a kill-capped one", () => {
    expect(recoveredOutput(task({ detachedAt: 2_000 }), CAP, 0).headOnly).toBe(false);
    const killCap = task({
      output: { producedBytes: 0, keptBytes: 0, elidedBytes: 0, capBytes: CAP, capAction: "kill" },
    });
    expect(recoveredOutput(killCap, CAP, 0)).toMatchObject({ capturedBytes: CAP, headOnly: false });
  });
});

describe("orphanTerminal", () => {
  const at = { at: 9_000, now: 9_500 };

  it("a recorded exit code decides the status, and the note says the host died", () => {
    const t = orphanTerminal(task(), { kind: "recorded", exit: exit() }, recoveredOutput(task(), 40, 10), at);
    expect(t).toMatchObject({ status: "failed", exitCode: 7, endTime: 5_000, bytesWritten: 50 });
    expect(t.error).toContain("Exited with code 7");
    expect(t.error).toContain("the Pi host died while this task ran; its exit status was recorded by the supervisor");
    expect(t.error).toContain("10 bytes saved in .pi/tasks/s-1-77/b1234abcd.after-host.output");
    expect(t.recovery).toEqual({
      at: 9_000,
      hostEnded: "died",
      spillPath: ".pi/tasks/s-1-77/b1234abcd.after-host.output",
      spilledBytes: 10,
      lostOutputBytes: 0,
    });
    expect(t.output).toMatchObject({ producedBytes: 50, keptBytes: 50, elidedBytes: 0 });
  });

  it("exit 0 completes a shell task, but not an agent run nobody verified", () => {
    const ok = orphanTerminal(task(), { kind: "recorded", exit: exit({ code: 0 }) }, recoveredOutput(task(), 0, 0), at);
    expect(ok.status).toBe("completed");
    const agent = orphanTerminal(
      task({ isAgent: true }),
      { kind: "recorded", exit: exit({ code: 0 }) },
      recoveredOutput(task(), 0, 0),
      at,
    );
    expect(agent.status).toBe("failed");
    expect(agent.error).toContain("before it could verify the run");
  });

  it("without a record the task failed with an unknown exit status, never a made-up code", () => {
    const t = orphanTerminal(task(), { kind: "unknown" }, recoveredOutput(task(), 12, 0), at);
    expect(t.status).toBe("failed");
    expect(t.exitCode).toBeUndefined();
    expect(t.signal).toBeUndefined();
    expect(t.endTime).toBe(9_500);
    expect(t.error).toContain("the Pi host died while this task ran and the task is gone; exit status unknown");
    expect(t.error).toContain("output after the host died was not captured");
    expect(t.recovery?.lostOutputBytes).toBe("unavailable");
  });

  it("a stop by this host is killed; a stop by policy says why", () => {
    const user = orphanTerminal(
      task(),
      { kind: "recorded", exit: exit({ code: null, signal: "SIGTERM" }), killKind: "user" },
      recoveredOutput(task(), 0, 0),
      at,
    );
    expect(user).toMatchObject({ status: "killed", killKind: "user", signal: "SIGTERM" });
    const policy = orphanTerminal(
      task(),
      { kind: "recorded", exit: exit({ code: null, signal: "SIGTERM" }) },
      recoveredOutput(task(), 0, 0),
      { ...at, killedByPolicy: true },
    );
    expect(policy.status).toBe("killed");
    expect(policy.error).toContain("PI_BG_ORPHANS=kill");
  });

  it("output beyond the spill cap is counted as unwritten, so produced = kept + elided + unwritten", () => {
    fc.assert(
      fc.property(fc.nat(CAP), fc.nat(5_000), fc.nat(5_000), fc.boolean(), (file, spilled, lost, detached) => {
        const origin = task(
          detached
            ? {
                detachedAt: 2_000,
                output: {
                  producedBytes: file + 3,
                  keptBytes: file,
                  elidedBytes: 3,
                  capBytes: CAP,
                  capAction: "keep_head_and_tail",
                },
              }
            : {},
        );
        const t = orphanTerminal(
          origin,
          { kind: "recorded", exit: exit({ spilledBytes: spilled, lostOutputBytes: lost }) },
          recoveredOutput(origin, file, spilled),
          at,
        );
        const o = t.output;
        expect(o.producedBytes).toBe(o.keptBytes + o.elidedBytes + (o.unwrittenBytes ?? 0));
        expect(t.bytesWritten).toBe(o.producedBytes);
        if (lost > 0) expect(t.error).toContain(`${lost} bytes beyond the spill cap were not kept`);
      }),
    );
  });

  it("a surviveReload task says its session let go of it, not that the host died", () => {
    const origin = task({ surviveReload: true, detachedAt: 2_000 });
    const t = orphanTerminal(origin, { kind: "recorded", exit: exit({ code: 0 }) }, recoveredOutput(origin, 10, 0), at);
    expect(t.status).toBe("completed");
    expect(t.error).toContain("left it running (surviveReload)");
    expect(t.recovery?.hostEnded).toBe("detached");
    expect(t.error).toContain("output still in the pipe when the host let go is lost");
  });

  it("a hand-over the supervisor confirmed lost nothing in the pipe, and says no such thing", () => {
    const origin = task({ surviveReload: true, detachedAt: 2_000, detachedInOrder: true });
    const t = orphanTerminal(origin, { kind: "recorded", exit: exit({ code: 0 }) }, recoveredOutput(origin, 10, 0), at);
    expect(t.error).not.toContain("still in the pipe");
  });
});

describe("reattachedSnapshot", () => {
  it("stays running and shows what was captured and saved so far", () => {
    const r = reattachedSnapshot(task(), recoveredOutput(task(), 30, 12), 9_000);
    expect(r).toMatchObject({
      status: "running",
      bytesWritten: 42,
      recovery: { hostEnded: "died", spilledBytes: 12, lostOutputBytes: "unavailable" },
    });
    expect(r.error).toBeUndefined();
  });
});

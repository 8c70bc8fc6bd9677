import { describe, expect, it } from "vitest";
import { rerunRefusal, taskKind } from "./task-kind.ts";
import { taskSnapshot } from "./task-snapshot.test-support.ts";

describe("taskKind and rerunRefusal", () => {
  it("a bg_run or /bg task is a shell task and may be rerun, an agent one too", () => {
    for (const task of [taskSnapshot("b1", "failed"), taskSnapshot("b2", "completed", { isAgent: true })]) {
      expect(taskKind(task)).toBe("shell");
      expect(rerunRefusal(task)).toBeUndefined();
    }
  });

  it.each([
    ["bg_delegate", { command: "bg_delegate: $(touch pwned)", delegate: {} }, "delegate"],
    ["fusion_validate", { command: "fusion_validate (run r1)", fusion: {} }, "fusion"],
    ["bg_run_pi_attested", { command: "pi --mode json < prompt (3 bytes on stdin)", attestedPi: {} }, "attested_pi"],
  ] as const)("a %s task's command is a label, never rerun as shell", (tool, extra, kind) => {
    const task = taskSnapshot("b9", "completed", extra as never);
    expect(taskKind(task)).toBe(kind);
    expect(rerunRefusal(task)).toBe(
      `b9 was started by ${tool}, not as a shell command, so it cannot be rerun from the dock; nothing was started. Ask the agent to call ${tool} again.`,
    );
  });
});

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { notifyOutput } from "./notify-output.test-support.ts";
import { ok } from "../../../domain/shared/model/result.ts";
import { TaskRuntime } from "../../../domain/tasks/service/task-runtime.ts";
import { FakeClock } from "../../fake/fake-clock.ts";
import { FakeProcessLauncher } from "../../fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../fake/seeded-random-source.ts";
import { registerTaskUi } from "./register-task-ui.ts";
import { rerunTask } from "./shell-rerun.ts";

function fakePi() {
  const calls = {
    commands: [] as string[],
    shortcuts: [] as string[],
    renderers: [] as string[],
    events: [] as string[],
  };
  const pi = {
    registerCommand: (name: string) => calls.commands.push(name),
    registerShortcut: (key: string) => calls.shortcuts.push(key),
    registerMessageRenderer: (type: string) => calls.renderers.push(type),
    on: (event: string) => calls.events.push(event),
  } as unknown as ExtensionAPI;
  return { pi, calls };
}

const noRuntime = () => {
  throw new Error("not needed");
};

describe("registerTaskUi", () => {
  it("registers the dock commands, /bg-clear, the renderer, the default shortcuts and session hooks", () => {
    const { pi, calls } = fakePi();
    registerTaskUi(pi, noRuntime, notifyOutput, {});
    expect(calls.commands.sort()).toEqual(["bg-clear", "bg-tasks", "tasks"]);
    expect(calls.shortcuts).toEqual(["shift+down", "ctrl+alt+c"]);
    expect(calls.renderers).toEqual(["background-task-notification"]);
    expect(calls.events).toEqual(["session_start", "session_shutdown"]);
  });

  it("PI_BG_DOCK_SHORTCUT picks another key or none", () => {
    const other = fakePi();
    registerTaskUi(other.pi, noRuntime, notifyOutput, { PI_BG_DOCK_SHORTCUT: "ctrl+alt+b" });
    expect(other.calls.shortcuts).toEqual(["ctrl+alt+b", "ctrl+alt+c"]);
    const off = fakePi();
    registerTaskUi(off.pi, noRuntime, notifyOutput, { PI_BG_DOCK_SHORTCUT: "off", PI_BG_CLEAR_SHORTCUT: "off" });
    expect(off.calls.shortcuts).toEqual([]);
    expect(off.calls.commands).toContain("tasks");
  });

  it("an invalid PI_BG_DOCK_SHORTCUT fails the load loudly with pi_bg_config_invalid", () => {
    const { pi, calls } = fakePi();
    expect(() => registerTaskUi(pi, noRuntime, notifyOutput, { PI_BG_DOCK_SHORTCUT: "shift+dwon" })).toThrow(
      /pi_bg_config_invalid/,
    );
    expect(calls.commands).toEqual([]);
  });
});

describe("rerunTask", () => {
  it("starts a shell task again as a /bg-style task (notified, no agent turn, isAgent kept), never a delegate", async () => {
    const launcher = new FakeProcessLauncher({ script: () => ({}) });
    const runtime = new TaskRuntime(
      {
        launcher,
        files: new InMemoryFileCommitter(),
        clock: new FakeClock(),
        random: new SeededRandomSource(3),
        notifier: { deliver: async () => ok(undefined) },
        warn: () => undefined,
      },
      {
        cwd: "/w",
        taskDir: "/w/t",
        displayDir: "t",
        env: {},
        outputCapBytes: 1 << 20,
        killGraceMs: 10,
        retainTasks: 10,
      },
    );
    const first = await runtime.start({
      name: "agent job",
      command: "pi -p hi",
      isAgent: true,
      description: "asks",
      timeoutSeconds: 60,
      notifyOnCompletion: false,
      triggerOnCompletion: true,
      onOutputCap: "kill",
    });
    if (!first.ok) throw new Error(first.error.message);
    const again = await rerunTask(runtime, first.value);
    if (!again.ok) throw new Error(again.error.message);
    expect(again.value.id).not.toBe(first.value.id);
    expect(again.value).toMatchObject({
      name: "agent job",
      command: "pi -p hi",
      isAgent: true,
      description: "asks",
      timeoutSeconds: 60,
      notifyOnCompletion: true,
      triggerOnCompletion: false,
      output: { capAction: "kill" },
    });
    expect(launcher.launches).toHaveLength(2);
    // A delegate's command is a label holding a model-chosen name: never run through the shell.
    const delegate = { ...first.value, command: "bg_delegate: $(touch pwned)", delegate: {} as never };
    const refused = await rerunTask(runtime, delegate);
    expect(refused.ok ? "started" : refused.error.code).toBe("rerun_not_shell_task");
    expect(launcher.launches).toHaveLength(2);
    await runtime.shutdown();
  });
});

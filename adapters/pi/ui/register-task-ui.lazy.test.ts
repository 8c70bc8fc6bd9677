import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { notifyOutput } from "./notify-output.test-support.ts";
import { ok } from "../../../domain/shared/model/result.ts";
import { TaskRuntime } from "../../../domain/tasks/service/task-runtime.ts";
import { FakeClock } from "../../fake/fake-clock.ts";
import { FakeProcessLauncher } from "../../fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../fake/seeded-random-source.ts";
import type { RuntimeLifecycle } from "../runtime-lifecycle.ts";
import { registerTaskUi } from "./register-task-ui.ts";
import { FOOTER_STATUS_KEY } from "./footer-status.ts";
import { PLAIN_THEME } from "./ui-theme.ts";

type Handler = (event: unknown, ctx: ExtensionContext) => Promise<void>;

/** registerTaskUi with a lifecycle, as the Pi extension wires it: nothing touches the runtime before it is built. */
function world(hasUI: boolean) {
  const handlers = new Map<string, Handler>();
  const pi = {
    registerCommand: () => undefined,
    registerShortcut: () => undefined,
    registerMessageRenderer: () => undefined,
    on: (event: string, handler: Handler) => void handlers.set(event, handler),
  } as unknown as ExtensionAPI;
  const statuses: Array<string | undefined> = [];
  const ctx = {
    hasUI,
    mode: hasUI ? "tui" : "print",
    ui: {
      setStatus: (key: string, text: string | undefined) => key === FOOTER_STATUS_KEY && statuses.push(text),
      theme: PLAIN_THEME,
    },
  } as unknown as ExtensionContext;
  const launcher = new FakeProcessLauncher({ clock: new FakeClock(), script: () => ({}) });
  const runtime = new TaskRuntime(
    {
      launcher,
      files: new InMemoryFileCommitter(),
      clock: new FakeClock({ wallMs: 1_700_000_000_000 }),
      random: new SeededRandomSource(9),
      notifier: { deliver: async () => ok(undefined) },
      warn: () => undefined,
    },
    { cwd: "/w", taskDir: "/w/t", displayDir: "t", env: {}, outputCapBytes: 1 << 20, killGraceMs: 10, retainTasks: 10 },
  );
  let built: TaskRuntime | undefined;
  const listeners: Array<(runtime: TaskRuntime) => void> = [];
  const lifecycle: RuntimeLifecycle = {
    ready: async () => {
      if (built === undefined) {
        built = runtime;
        for (const listener of listeners) listener(runtime);
      }
      return runtime;
    },
    built: () => built,
    onBuilt: (listener) => void listeners.push(listener),
  };
  let accessed = 0;
  const access = () => {
    accessed += 1;
    if (built === undefined) throw new Error("the runtime was needed before it was built");
    return built;
  };
  registerTaskUi(pi, access, notifyOutput, {}, lifecycle);
  const fire = (event: string) => handlers.get(event)?.({}, ctx);
  return { fire, lifecycle, runtime, launcher, statuses, accessed: () => accessed };
}

const job = {
  name: "job",
  command: "work",
  isAgent: false,
  notifyOnCompletion: false,
  triggerOnCompletion: false,
  onOutputCap: "keep_head_and_tail",
} as const;

describe("registerTaskUi with a runtime built on first need", () => {
  it("session_start needs no runtime; once it is built the footer follows its tasks", async () => {
    const w = world(true);
    await w.fire("session_start");
    expect(w.accessed()).toBe(0);
    expect(w.statuses).toEqual([]);
    const runtime = await w.lifecycle.ready();
    await runtime.start(job);
    await expect.poll(() => w.statuses.at(-1)).toContain("1 running");
    await w.fire("session_shutdown");
    expect(w.statuses.at(-1)).toBeUndefined();
    await runtime.shutdown();
  });

  it("a runtime built before the UI's session_start is picked up at once", async () => {
    const w = world(true);
    const runtime = await w.lifecycle.ready();
    await runtime.start(job);
    await w.fire("session_start");
    expect(w.statuses.at(-1)).toContain("1 running");
    await w.fire("session_shutdown");
    await runtime.shutdown();
  });

  it("without a UI there is no footer, before or after the runtime exists", async () => {
    const w = world(false);
    await w.fire("session_start");
    const runtime = await w.lifecycle.ready();
    await runtime.start(job);
    expect(w.statuses).toEqual([]);
    await runtime.shutdown();
  });
});

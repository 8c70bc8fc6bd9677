import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeProcessLauncher } from "../../../adapters/fake/fake-process-launcher.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import type { LaunchCommand, ProcessLauncher, WrittenOutputState } from "../../../ports/process-launcher.ts";
import type {
  ShellExitPolicy,
  SupervisedLaunch,
  SupervisionFiles,
  TaskSupervisor,
} from "../../../ports/task-survival.ts";
import { ok } from "../../shared/model/result.ts";
import { normalizeRunArguments, type RunRequest } from "../model/run-request.ts";
import { InProcessWork } from "./in-process-work.ts";
import { TaskRuntime } from "./task-runtime.ts";

const DIR = "/w/.pi/tasks/s-1";
const TAG = "00112233445566778899aabbccddeeff";

/** Records what it was asked to wrap and launches it on the launcher twin as a recognisable argv. */
class RecordingSupervisor implements TaskSupervisor {
  readonly wrapped: Array<{ command: LaunchCommand; files: SupervisionFiles }> = [];
  /** When set, the launch writes the output file itself and has already produced this much when it is returned. */
  writtenAtStart: WrittenOutputState | undefined;
  constructor(private readonly launcher: ProcessLauncher) {}
  wrap(
    command: LaunchCommand,
    env: Readonly<Record<string, string>>,
    files: SupervisionFiles,
    policy: ShellExitPolicy,
  ) {
    this.wrapped.push({ command, files });
    return { command, env: { ...env, TAGGED: "1" }, processTag: TAG, files, policy };
  }
  async launch(supervised: SupervisedLaunch, cwd: string) {
    const launched = this.launcher.launch({
      command: { kind: "argv", file: "/supervisor", args: [supervised.files.exitPath] },
      cwd,
      env: supervised.env,
    });
    const state = this.writtenAtStart;
    if (!launched.ok || state === undefined) return launched;
    const writtenOutput = {
      watch: (onState: (s: WrittenOutputState) => void) => onState(state),
      hold: async () => undefined,
    };
    return ok(Object.assign(launched.value, { writtenOutput }));
  }
}

function request(overrides: Record<string, unknown> = {}): RunRequest {
  const r = normalizeRunArguments({ name: "t", command: "serve", isAgent: false, ...overrides });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function setup(options: { supervised?: boolean } = {}) {
  const clock = new FakeClock();
  const launcher = new FakeProcessLauncher({ clock, script: () => ({ stdout: ["up\n"] }) });
  const files = new InMemoryFileCommitter();
  const supervisor = new RecordingSupervisor(launcher);
  const warnings: string[] = [];
  const runtime = new TaskRuntime(
    {
      launcher,
      files,
      clock,
      random: new SeededRandomSource(5),
      notifier: { deliver: async () => ok(undefined) },
      warn: (m) => warnings.push(m),
      ...(options.supervised === false ? {} : { supervisor, host: { pid: 4242, startedAt: "boot/4242" } }),
    },
    {
      cwd: "/w",
      taskDir: DIR,
      displayDir: ".pi/tasks/s-1",
      env: { PATH: "/bin" },
      outputCapBytes: 1 << 20,
      killGraceMs: 3_000,
      retainTasks: 100,
    },
  );
  const meta = (id: string) =>
    JSON.parse(Buffer.from(files.contents(`${DIR}/${id}.json`) ?? new Uint8Array()).toString()) as Record<
      string,
      unknown
    >;
  return { clock, launcher, files, supervisor, warnings, runtime, meta };
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};

describe("TaskRuntime with a task supervisor", () => {
  it("launches the command under the supervisor and records host, tag and files before the process starts", async () => {
    const { runtime, launcher, supervisor, meta } = setup();
    const started = await runtime.start(request());
    if (!started.ok) throw new Error(started.error.message);
    const id = started.value.id;
    expect(supervisor.wrapped).toEqual([
      {
        command: { kind: "shell", command: "serve" },
        files: {
          exitPath: `${DIR}/${id}.exit.json`,
          spillPath: `${DIR}/${id}.after-host.output`,
          spillCapBytes: 1 << 20,
          output: { path: `${DIR}/${id}.output`, capBytes: 1 << 20, capAction: "keep_head_and_tail" },
        },
      },
    ]);
    expect(launcher.launches[0]).toMatchObject({
      command: { kind: "argv", file: "/supervisor" },
      env: { PATH: "/bin", TAGGED: "1" },
    });
    expect(meta(id)).toMatchObject({ hostPid: 4242, hostStartedAt: "boot/4242", processTag: TAG, status: "running" });
    await runtime.shutdown();
  });

  it("asks the supervisor to write the output file only when no filter has to see the output", async () => {
    const { runtime, supervisor } = setup();
    const filter = { push: (chunk: Uint8Array) => [chunk], flush: () => [] };
    await runtime.start(request({ name: "plain" }));
    await runtime.start(request({ name: "agent" }), {
      command: { kind: "shell", command: "pi" },
      stdoutFilter: filter,
    });
    await runtime.start(request({ name: "stderr" }), {
      command: { kind: "shell", command: "pi" },
      stderrFilter: filter,
    });
    expect(supervisor.wrapped.map((w) => w.files.output !== undefined)).toEqual([true, false, false]);
    await runtime.shutdown();
  });

  it("a supervisor that has written past a kill cap before its launch is returned gets the task stopped", async () => {
    const { runtime, supervisor, launcher, meta } = setup();
    supervisor.writtenAtStart = { produced: 3 << 20 };
    const started = await runtime.start(request({ onOutputCap: "kill" }));
    if (!started.ok) throw new Error(started.error.message);
    await flush();
    expect(launcher.processes[0]?.alive(launcher.processes[0].pid)).toBe(false);
    expect(meta(started.value.id)).toMatchObject({ status: "failed", killKind: "output_cap" });
  });

  it("in-process work is not supervised", async () => {
    const { runtime, supervisor } = setup();
    await runtime.start(request(), {
      command: { kind: "shell", command: "unused" },
      start: () => ok(new InProcessWork(1, async () => ok({}))),
    });
    expect(supervisor.wrapped).toEqual([]);
    await runtime.shutdown();
  });

  it("surviveReload without a supervisor is refused before anything is launched", async () => {
    const { runtime, launcher } = setup({ supervised: false });
    const started = await runtime.start(request({ surviveReload: true }));
    expect(started.ok || started.error.code).toBe("survive_reload_unavailable");
    expect(launcher.launches).toEqual([]);
  });

  it("shutdown stops ordinary tasks but lets go of surviveReload ones: still running, output closed, metadata saying so", async () => {
    const { runtime, launcher, meta, clock, files } = setup();
    const kept = await runtime.start(request({ surviveReload: true }));
    const stopped = await runtime.start(request());
    if (!kept.ok || !stopped.ok) throw new Error("start failed");
    await flush();
    await runtime.shutdown();
    const [keptProcess, stoppedProcess] = launcher.processes;
    expect(keptProcess?.alive(keptProcess.pid)).toBe(true);
    expect(stoppedProcess?.alive(stoppedProcess.pid)).toBe(false);
    expect(meta(stopped.value.id)).toMatchObject({ status: "killed", killKind: "shutdown" });
    expect(meta(kept.value.id)).toMatchObject({
      status: "running",
      surviveReload: true,
      detachedAt: clock.now(),
      output: { producedBytes: 3, keptBytes: 3 },
    });
    expect(Buffer.from(files.contents(`${DIR}/${kept.value.id}.output`) ?? []).toString()).toBe("up\n");
    // When the process ends later, this runtime no longer decides its terminal state: the next session does.
    keptProcess?.finish({ code: 0 });
    await flush();
    expect(meta(kept.value.id).status).toBe("running");
  });
});

import { describe, expect, it } from "vitest";
import { parseExitRecord, type ExitRecord } from "../domain/tasks/model/exit-record.ts";
import type { LaunchCommand, WrittenOutputState } from "../ports/process-launcher.ts";
import type { OutputFileRequest, ShellExitPolicy, SupervisionFiles, TaskSupervisor } from "../ports/task-survival.ts";
import { drain } from "./process-output.ts";

export const COVERS_PORT = "ports/task-survival.ts";

/** The commands a supervised task runs; each twin maps them to what its launcher can run. */
export type SupervisedScenario =
  | { readonly kind: "print-and-exit"; readonly stdout: string; readonly stderr: string; readonly exitCode: number }
  /** Prints the value of the environment variable `name`, then exits 0. */
  | { readonly kind: "print-env"; readonly name: string }
  /** Sends itself SIGUSR2. */
  | { readonly kind: "die-by-signal" }
  /** Starts a child with its own stdio that runs `runMs` and exits 0; prints "detached <pid>\n" and exits 0 at once. */
  | { readonly kind: "detached-child"; readonly runMs: number };

/** Each scenario as a POSIX shell command line (for supervisors that run a shell: the host's, a container's). */
export function shellScenario(scenario: SupervisedScenario): string {
  switch (scenario.kind) {
    case "print-and-exit":
      return `printf '%s' '${scenario.stdout}'; printf '%s' '${scenario.stderr}' >&2; exit ${scenario.exitCode}`;
    case "print-env":
      return `printf '%s' "$${scenario.name}"`;
    case "die-by-signal":
      return "kill -USR2 $$";
    case "detached-child":
      return `sleep ${scenario.runMs / 1000} </dev/null >/dev/null 2>&1 & echo "detached $!"`;
  }
}

export interface TaskSupervisorSubject {
  readonly supervisor: TaskSupervisor;
  /** A fresh directory for the supervision files. */
  readonly dir: string;
  command(scenario: SupervisedScenario): LaunchCommand;
  /** The bytes of a file the supervisor wrote, or undefined. */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /** Creates an empty file, as the host creates a task's output file before the launch. */
  createFile(path: string): Promise<void>;
  /** Whether the process `pid` is alive (and not a zombie). */
  alive(pid: number): Promise<boolean>;
}

/**
 * Which cases apply to which backend, and why. `host`: processes on this machine under the task supervisor.
 * `container`: one container per task on a Docker engine, whose main process ending ends the container.
 */
export type SupervisorBackend = "host" | "container";
const NOT_FOR_CONTAINERS =
  "a container ends with its main process: nothing outlives the command, so no tree is left to report, stop or wait for";
export const CASES_BY_BACKEND: Readonly<Record<string, Readonly<Record<SupervisorBackend, true | string>>>> = {
  "output, code and exit record": {
    host: true,
    // Both streams arrive on stdout, in the order of the engine's log, so the output file is a prefix of that
    // log and a later host can resume it by a byte count; the file interleaves them for host tasks too.
    container: true,
  },
  "death by a signal": {
    host: true,
    container: true, // recorded as the engine sees it: the container's init exits with 128 + the signal's number
  },
  environment: { host: true, container: true },
  "an output file to write": { host: true, container: true },
  "a tag per task": { host: true, container: true },
  "a detached child is reported and waited for": { host: true, container: NOT_FOR_CONTAINERS },
  "stop: a child past the grace is stopped": { host: true, container: NOT_FOR_CONTAINERS },
  "wait: the task lasts as long as the child": { host: true, container: NOT_FOR_CONTAINERS },
};
const applies = (backend: SupervisorBackend, name: string) => CASES_BY_BACKEND[name]?.[backend] === true;

const STOP_AFTER = (graceMs: number): ShellExitPolicy => ({
  afterShellExit: { remaining: "stop", graceMs },
  killGraceMs: 1_000,
});
const LONG_MS = 30_000;

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

export function describeTaskSupervisorContract(
  name: string,
  makeSubject: () => Promise<TaskSupervisorSubject>,
  backend: SupervisorBackend = "host",
): void {
  describe(`TaskSupervisor contract: ${name}`, () => {
    const files = (subject: TaskSupervisorSubject): SupervisionFiles => ({
      exitPath: `${subject.dir}/t.exit.json`,
      spillPath: `${subject.dir}/t.after-host.output`,
      spillCapBytes: 1 << 20,
    });
    const launch = async (
      subject: TaskSupervisorSubject,
      scenario: SupervisedScenario,
      env = {},
      policy = STOP_AFTER(LONG_MS),
      output?: OutputFileRequest,
    ) => {
      const wrapped = subject.supervisor.wrap(
        subject.command(scenario),
        { PATH: "/usr/bin:/bin", ...env },
        { ...files(subject), output },
        policy,
      );
      const launched = await subject.supervisor.launch(wrapped, subject.dir);
      if (!launched.ok) throw new Error(`launch failed: ${launched.error.message}`);
      return launched.value;
    };
    const run = async (subject: TaskSupervisorSubject, scenario: SupervisedScenario, env = {}) => {
      const proc = await launch(subject, scenario, env);
      const [stdout, stderr, exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
      await proc.release?.(); // what the launch kept after its end (a container) goes, as the host does once it is durable
      return { stdout: text(stdout), stderr: text(stderr), exit };
    };
    /** Runs a detached child under `policy`: its pid, the reported end of the command, and the task's end. */
    const detached = async (subject: TaskSupervisorSubject, runMs: number, policy: ShellExitPolicy) => {
      const proc = await launch(subject, { kind: "detached-child", runMs }, {}, policy);
      // The supervisor keeps relaying until the task ends, so the child's pid in the output is read at the end.
      const outputs = Promise.all([drain(proc.stdout), drain(proc.stderr)]);
      const leader = await proc.leaderExit;
      const aliveAtLeaderExit = await Promise.all(leader.remaining.map((p) => subject.alive(p.pid)));
      const exit = await proc.exited;
      const [stdout] = await outputs;
      const child = Number(/^detached (\d+)$/m.exec(text(stdout))?.[1]);
      return {
        child,
        leader,
        aliveAtLeaderExit: aliveAtLeaderExit.every(Boolean),
        exit,
        aliveAtExit: await subject.alive(child),
      };
    };
    const record = async (subject: TaskSupervisorSubject): Promise<ExitRecord> => {
      const bytes = await subject.readFile(files(subject).exitPath);
      if (bytes === undefined) throw new Error("no exit record was committed");
      const parsed = parseExitRecord(bytes);
      if (!parsed.ok) throw new Error(parsed.error.message);
      return parsed.value;
    };

    it.runIf(applies(backend, "output, code and exit record"))(
      "passes the output through, ends with the command's code and commits it as the exit record",
      async () => {
        const subject = await makeSubject();
        const ran = await run(subject, { kind: "print-and-exit", stdout: "out ✓\n", stderr: "err\n", exitCode: 7 });
        if (backend === "host")
          expect(ran).toEqual({ stdout: "out ✓\n", stderr: "err\n", exit: { code: 7, signal: null } });
        else {
          expect({ ...ran, stdout: [...ran.stdout.split(/(?<=\n)/)].sort() }).toEqual({
            stdout: ["err\n", "out ✓\n"],
            stderr: "",
            exit: { code: 7, signal: null },
          });
        }
        expect(await record(subject)).toMatchObject({ code: 7, signal: null, hostGone: false, spilledBytes: 0 });
        expect(await subject.readFile(files(subject).spillPath)).toBeUndefined();
      },
    );

    it.runIf(applies(backend, "death by a signal"))("ends by the command's signal and records it", async () => {
      const subject = await makeSubject();
      const ended = backend === "host" ? { code: null, signal: "SIGUSR2" } : { code: 128 + 12, signal: null };
      expect((await run(subject, { kind: "die-by-signal" })).exit).toEqual(ended);
      expect(await record(subject)).toMatchObject(ended);
    });

    it.runIf(applies(backend, "environment"))("gives the command the environment it was given", async () => {
      const subject = await makeSubject();
      const ran = await run(subject, { kind: "print-env", name: "TASK_VALUE" }, { TASK_VALUE: "kept — ü" });
      expect(ran.stdout).toBe("kept — ü");
    });

    it.runIf(applies(backend, "an output file to write"))(
      "asked to write the output file, carries the output exactly once: into the file itself, or through the streams",
      async () => {
        const subject = await makeSubject();
        const output: OutputFileRequest = { path: `${subject.dir}/t.output`, capBytes: 1 << 20, capAction: "kill" };
        await subject.createFile(output.path);
        const scenario = { kind: "print-and-exit", stdout: "out ✓\n", stderr: "err\n", exitCode: 0 } as const;
        const proc = await launch(subject, scenario, {}, STOP_AFTER(LONG_MS), output);
        const [stdout, stderr, exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
        await proc.release?.();
        const file = text((await subject.readFile(output.path)) ?? new Uint8Array());
        const streams = text(stdout) + text(stderr);
        const lines = (all: string) => all.split(/(?<=\n)/).sort();
        expect(exit).toEqual({ code: 0, signal: null });
        if (proc.writtenOutput === undefined) {
          expect({ streams: lines(streams), file }).toEqual({ streams: ["err\n", "out ✓\n"], file: "" });
          return;
        }
        const states: WrittenOutputState[] = [];
        proc.writtenOutput.watch((state) => states.push(state));
        expect({ file: lines(file), streams }).toEqual({ file: ["err\n", "out ✓\n"], streams: "" });
        expect(states).toEqual([{ produced: new TextEncoder().encode(file).length }]);
        expect(await proc.writtenOutput.hold()).toBeUndefined(); // the writer has stopped: the file is the host's
      },
    );

    it.runIf(applies(backend, "a tag per task"))("gives every task its own process tag", async () => {
      const subject = await makeSubject();
      const tags = Array.from(
        { length: 20 },
        () =>
          subject.supervisor.wrap(subject.command({ kind: "die-by-signal" }), {}, files(subject), STOP_AFTER(0))
            .processTag,
      );
      expect(new Set(tags).size).toBe(20);
      for (const tag of tags) expect(tag.length).toBeGreaterThanOrEqual(16);
    });

    it.runIf(applies(backend, "a detached child is reported and waited for"))(
      "a command that leaves a detached child: its end is reported with the child listed, the task ends with the child",
      async () => {
        const subject = await makeSubject();
        const ran = await detached(subject, 700, STOP_AFTER(LONG_MS));
        expect({ code: ran.leader.code, signal: ran.leader.signal }).toEqual({ code: 0, signal: null });
        expect(ran.leader.remaining.map((p) => p.pid)).toEqual([ran.child]);
        expect(ran.aliveAtLeaderExit).toBe(true);
        expect(ran.exit).toEqual({ code: 0, signal: null });
        expect(ran.aliveAtExit).toBe(false);
        expect((await record(subject)).tree).toMatchObject({ descendants: 1, stopped: [] });
      },
    );

    it.runIf(applies(backend, "stop: a child past the grace is stopped"))(
      "stop: a child still running when the grace ends is stopped, and the record names it",
      async () => {
        const subject = await makeSubject();
        const ran = await detached(subject, LONG_MS, STOP_AFTER(150));
        expect(ran.leader.remaining.map((p) => p.pid)).toEqual([ran.child]);
        expect(ran.aliveAtLeaderExit).toBe(true);
        expect(ran.exit.code).toBe(0);
        expect(ran.exit.strays).toEqual([ran.child]); // the task's own exit names what was stopped
        expect(ran.aliveAtExit).toBe(false);
        expect((await record(subject)).tree).toMatchObject({ descendants: 1, stopped: [ran.child] });
      },
    );

    it.runIf(applies(backend, "wait: the task lasts as long as the child"))(
      "wait: the task lasts as long as the child, which ends by itself",
      async () => {
        const subject = await makeSubject();
        const ran = await detached(subject, 900, { afterShellExit: { remaining: "wait" }, killGraceMs: 1_000 });
        expect(ran.leader.remaining.map((p) => p.pid)).toEqual([ran.child]);
        expect(ran.aliveAtLeaderExit).toBe(true);
        expect(ran.exit).toEqual({ code: 0, signal: null });
        expect(ran.aliveAtExit).toBe(false);
        expect((await record(subject)).tree).toMatchObject({ descendants: 1, stopped: [] });
      },
    );
  });
}

import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  describeTaskSupervisorContract,
  type SupervisedScenario,
} from "../../contract-tests/task-supervisor.contract.ts";
import { type ExitRecord, parseExitRecord } from "../../domain/tasks/model/exit-record.ts";
import type { RunningProcess } from "../../ports/process-launcher.ts";
import { NodeProcessLauncher } from "./node-process-launcher.ts";
import { NodeTaskSupervisor } from "./node-task-supervisor.ts";

const launcher = new NodeProcessLauncher({ drainGraceMs: 500, strayKillGraceMs: 500 });
const supervisor = new NodeTaskSupervisor();
const POLICY = { afterShellExit: { remaining: "stop", graceMs: 500 }, killGraceMs: 500 } as const;

/** Alive and not a zombie. */
async function isAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return stat !== "" && state !== "Z" && state !== "X";
}

function run(command: string, options: { env?: Record<string, string>; spillCap?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "supervisor-"));
  const files = {
    exitPath: join(dir, "t.exit.json"),
    spillPath: join(dir, "t.after-host.output"),
    spillCapBytes: options.spillCap ?? 1 << 20,
  };
  const wrapped = supervisor.wrap(
    { kind: "shell", command, shell: "/bin/sh" },
    { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.env },
    files,
    POLICY,
  );
  const launched = launcher.launch({ command: wrapped.command, cwd: dir, env: wrapped.env });
  if (!launched.ok) throw new Error(launched.error.message);
  return { dir, files, proc: launched.value, tag: wrapped.processTag };
}

async function text(stream: AsyncIterable<Uint8Array>): Promise<string> {
  let out = "";
  for await (const chunk of stream) out += Buffer.from(chunk).toString("utf8");
  return out;
}

function record(path: string): ExitRecord {
  const parsed = parseExitRecord(readFileSync(path));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

async function collect(proc: RunningProcess) {
  const [stdout, stderr, exit] = await Promise.all([text(proc.stdout), text(proc.stderr), proc.exited]);
  return { stdout, stderr, exit };
}

const shell = (scenario: SupervisedScenario): string => {
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
};

describeTaskSupervisorContract("NodeTaskSupervisor (task-supervisor.mjs) on NodeProcessLauncher", async () => ({
  supervisor,
  launcher,
  dir: mkdtempSync(join(tmpdir(), "supervisor-")),
  command: (scenario) => ({ kind: "shell", command: shell(scenario), shell: "/bin/sh" }),
  readFile: (path) => readFile(path).catch(() => undefined),
  alive: (pid) => isAlive(pid),
}));

describe("task-supervisor.mjs", () => {
  it("outlives a group SIGTERM long enough to record how the command ended", async () => {
    const { proc, files } = run("trap 'echo cleaning; exit 5' TERM; echo ready; while :; do sleep 0.05; done");
    const out = proc.stdout[Symbol.asyncIterator]();
    expect(Buffer.from((await out.next()).value ?? []).toString()).toBe("ready\n");
    process.kill(-proc.pid, "SIGTERM");
    const [rest, exit] = await Promise.all([
      text({ [Symbol.asyncIterator]: () => out }),
      proc.exited,
      text(proc.stderr),
    ]);
    expect(rest).toBe("cleaning\n");
    expect(exit).toEqual({ code: 5, signal: null });
    expect(record(files.exitPath).code).toBe(5);
  });

  it("when the host lets go, the command keeps running: later output goes to the spill file up to its cap, the rest is counted", async () => {
    const payload = "x".repeat(100);
    const { proc, files } = run(`echo ready; sleep 0.4; printf '${payload}'; echo done >&2; exit 4`, { spillCap: 10 });
    const out = proc.stdout[Symbol.asyncIterator]();
    expect(Buffer.from((await out.next()).value ?? []).toString()).toBe("ready\n");
    proc.detach?.(); // the host's ends of the pipes close, as when the host dies
    await expect.poll(() => existsSync(files.exitPath), { timeout: 10_000, interval: 50 }).toBe(true);
    expect(record(files.exitPath)).toMatchObject({ code: 4, hostGone: true, spilledBytes: 10, lostOutputBytes: 95 });
    expect(readFileSync(files.spillPath, "utf8")).toBe("x".repeat(10));
  });

  it("a command that cannot start exits 127 with the reason, and that is recorded too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "supervisor-"));
    const files = { exitPath: join(dir, "t.exit.json"), spillPath: join(dir, "t.spill"), spillCapBytes: 100 };
    const wrapped = supervisor.wrap(
      { kind: "argv", file: join(dir, "missing-program"), args: [] },
      { PATH: "/usr/bin:/bin" },
      files,
      POLICY,
    );
    const launched = launcher.launch({ command: wrapped.command, cwd: dir, env: wrapped.env });
    if (!launched.ok) throw new Error(launched.error.message);
    const { stderr, exit } = await collect(launched.value);
    expect(exit).toEqual({ code: 127, signal: null });
    expect(stderr).toContain("cannot start");
    expect(record(files.exitPath).code).toBe(127);
  });

  it("NODE_OPTIONS reach the command, not the supervisor", async () => {
    const { proc } = run('printf "%s" "$NODE_OPTIONS"', {
      env: { NODE_OPTIONS: "--require /nonexistent/preload.cjs" },
    });
    expect(await collect(proc)).toEqual({
      stdout: "--require /nonexistent/preload.cjs",
      stderr: "",
      exit: { code: 0, signal: null },
    });
  });

  it("every process of the task carries the supervision tag", async () => {
    const { proc, tag } = run("echo $PI_BG_PROCESS_TAG");
    const { stdout } = await collect(proc);
    expect(stdout.trim().split(":")).toContain(tag);
  });
});

import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeTaskSupervisorContract, shellScenario } from "../../contract-tests/task-supervisor.contract.ts";
import { NodeSurvivorProbe } from "./node-survivor-probe.ts";
import { NodeTaskSupervisor } from "./node-task-supervisor.ts";
import { collect, launchArgv, record, run, supervisor, text } from "./task-supervisor.test-support.ts";

afterAll(() => supervisor.close());

/** Alive and not a zombie. */
async function isAlive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return stat !== "" && state !== "Z" && state !== "X";
}

function childrenOf(pid: number): string {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

describeTaskSupervisorContract("NodeTaskSupervisor (one task-supervisor.mjs for the host)", async () => ({
  supervisor,
  dir: mkdtempSync(join(tmpdir(), "supervisor-")),
  command: (scenario) => ({ kind: "shell", command: shellScenario(scenario), shell: "/bin/sh" }),
  readFile: (path) => readFile(path).catch(() => undefined),
  createFile: (path) => writeFile(path, ""),
  alive: (pid) => isAlive(pid),
}));

describe("task-supervisor.mjs", () => {
  it("a stop sent to the task's group is the command's alone: the supervisor records how it ended", async () => {
    const { proc, files } = await run("trap 'echo cleaning; exit 5' TERM; echo ready; while :; do sleep 0.05; done");
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

  it("a command that cannot start is a typed launch error, and nothing is recorded", async () => {
    const { launched, files } = await launchArgv("pi-bg-no-such-program", []);
    expect(launched.ok || launched.error).toMatchObject({
      code: "spawn_failed",
      message: expect.stringContaining("ENOENT"),
    });
    expect(existsSync(files.exitPath)).toBe(false);
  });

  it("NODE_OPTIONS reach the command, not the supervisor", async () => {
    const { proc } = await run('printf "%s" "$NODE_OPTIONS"', {
      env: { NODE_OPTIONS: "--require /nonexistent/preload.cjs" },
    });
    expect(await collect(proc)).toEqual({
      stdout: "--require /nonexistent/preload.cjs",
      stderr: "",
      exit: { code: 0, signal: null },
    });
  });

  it("every process of the task carries the supervision tag", async () => {
    const { proc, tag } = await run("echo $PI_BG_PROCESS_TAG");
    const { stdout } = await collect(proc);
    expect(stdout.trim().split(":")).toContain(tag);
  });

  it("one supervisor process is the parent of every task of the host, not the host itself", async () => {
    const runs = await Promise.all([1, 2, 3].map(() => run("sleep 5")));
    const parents = new Set(runs.map(({ proc }) => parentOf(proc.pid)));
    expect(parents.size).toBe(1);
    expect(parents.has(process.pid)).toBe(false);
    await Promise.all(runs.map(({ proc }) => proc.killGroup({ graceMs: 500 })));
  });

  it("a supervisor killed mid-run: each of its tasks ends with its exit status unknown and nothing of it left", async () => {
    const own = new NodeTaskSupervisor();
    const runs = await Promise.all([
      run("sleep 30", { on: own }),
      run("sleep 30 >/dev/null 2>&1 & echo started; wait", { on: own }),
    ]);
    const daemon = parentOf(runs[0]?.proc.pid ?? 0);
    process.kill(daemon, "SIGKILL");
    const exits = await Promise.all(runs.map(({ proc }) => proc.exited));
    for (const exit of exits) {
      expect(exit).toMatchObject({ code: null, signal: null });
      expect(exit.lost).toContain(`the task supervisor (pid ${daemon}) ended while the task ran`);
    }
    for (const { files } of runs) expect(readFileSync(files.exitPath, "utf8")).toBe(""); // reserved, never written
    const probe = new NodeSurvivorProbe();
    for (const { tag } of runs) expect(await probe.taggedProcesses(tag)).toEqual([]);
    // The next task starts a new supervisor.
    const next = await run("echo again", { on: own });
    expect((await collect(next.proc)).stdout).toBe("again\n");
    own.close();
  });

  it("its socket is in a directory only this user can enter; a malformed request is refused and starts nothing", async () => {
    const { proc } = await run("sleep 5");
    const daemon = parentOf(proc.pid);
    const socketPath = readFileSync(`/proc/${daemon}/cmdline`, "utf8").split("\0")[2] ?? "";
    expect(statSync(dirname(socketPath)).mode & 0o777).toBe(0o700);
    const before = childrenOf(daemon);
    const marker = join(mkdtempSync(join(tmpdir(), "supervisor-")), "ran");
    for (const line of [
      "not json",
      JSON.stringify({ kind: "task", file: "/bin/sh", args: ["-c", `touch ${marker}`], tag: "short" }),
      JSON.stringify({ kind: "other" }),
    ]) {
      const socket = createConnection(socketPath);
      socket.on("error", () => undefined);
      let answer = "";
      socket.on("data", (chunk: Buffer) => (answer += chunk.toString("utf8")));
      socket.write(`${line}\n`);
      await new Promise((resolve) => socket.on("close", resolve));
      expect(answer).toContain("refused by the supervisor");
    }
    expect(childrenOf(daemon)).toEqual(before);
    expect(existsSync(marker)).toBe(false);
    await proc.killGroup({ graceMs: 500 });
  });

  it("a command the system refuses to spawn fails its own launch only: the supervisor and its other tasks run on", async () => {
    const { proc: other } = await run("sleep 5");
    const daemon = parentOf(other.pid);
    // One argument over Linux's 128 KiB limit: spawn throws E2BIG (it emits no error event).
    const { launched } = await launchArgv("/bin/echo", ["x".repeat(200_000)]);
    expect(launched.ok || launched.error).toMatchObject({
      code: "spawn_failed",
      message: expect.stringContaining("E2BIG"),
    });
    expect(await isAlive(daemon)).toBe(true);
    expect(await isAlive(other.pid)).toBe(true);
    await other.killGroup({ graceMs: 500 });
  });

  it("a request is decoded whole: text that straddles a 64 KiB read arrives intact", async () => {
    for (const pad of [65_520, 65_530, 65_535]) {
      const text = `${"x".repeat(pad)} é ü — ✓ ${"y".repeat(200)}`;
      const { proc } = await run(`printf '%s' '${text}' | tail -c 220`);
      const { stdout } = await collect(proc);
      expect(stdout).toBe(Buffer.from(text).subarray(-220).toString("utf8"));
    }
  });

  it("a host that reads slowly loses nothing: output a finished writer left in the pipes waits for it", async () => {
    const { proc } = await run("sleep 5");
    const daemon = parentOf(proc.pid);
    const socketPath = readFileSync(`/proc/${daemon}/cmdline`, "utf8").split("\0")[2] ?? "";
    const dir = mkdtempSync(join(tmpdir(), "supervisor-"));
    const exitPath = join(dir, "t.exit.json");
    const bytes = Number(readFileSync("/proc/sys/net/core/wmem_default", "utf8")) + 3 * 65_536;
    const request = {
      kind: "task",
      file: "/bin/sh",
      // The writer outlives the shell and ends while its last bytes are still in the pipe and the supervisor's
      // buffers: more than the socket's send buffer and the supervisor's write buffer take, less than those and
      // the pipe and the read buffer (64 KiB each) do.
      args: ["-c", `head -c ${bytes} /dev/zero & exit 0`],
      cwd: dir,
      env: { PATH: "/usr/bin:/bin", PI_BG_PROCESS_TAG: "0".repeat(32) },
      exitPath,
      spillPath: join(dir, "t.spill"),
      spillCapBytes: 1 << 20,
      tag: "0".repeat(32),
      afterShellExit: { remaining: "wait" },
      killGraceMs: 500,
    };
    const socket = createConnection(socketPath);
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.write(`${JSON.stringify(request)}\n`);
    socket.pause(); // a host too busy to read, for longer than the supervisor's 2 s drain grace
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    socket.resume();
    await new Promise((resolve) => socket.on("close", resolve));
    let stdoutBytes = 0;
    const frames = Buffer.concat(received);
    for (let at = 0; at < frames.length; at += 5 + frames.readUInt32BE(at + 1))
      if (frames[at] === 1) stdoutBytes += frames.readUInt32BE(at + 1);
    expect({ stdoutBytes, lost: record(exitPath).lostOutputBytes }).toEqual({ stdoutBytes: bytes, lost: 0 });
    await proc.killGroup({ graceMs: 500 });
  });

  it("once the host has closed, the supervisor ends with its last task", async () => {
    const own = new NodeTaskSupervisor();
    const { proc } = await run("sleep 0.5", { on: own });
    const daemon = parentOf(proc.pid);
    own.close();
    expect(await isAlive(daemon)).toBe(true); // its task still runs
    await proc.exited;
    await expect.poll(() => isAlive(daemon), { timeout: 10_000, interval: 50 }).toBe(false);
  });
});

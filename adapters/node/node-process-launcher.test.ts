import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { describeProcessLauncherContract } from "../../contract-tests/process-launcher.contract.ts";
import { drain } from "../../contract-tests/process-output.ts";
import type { ProcessScenario } from "../../contract-tests/process-scenarios.ts";
import type { LaunchSpec } from "../../ports/process-launcher.ts";
import { NodeProcessLauncher } from "./node-process-launcher.ts";

const run = promisify(execFile);
const workDir = mkdtempSync(join(tmpdir(), "npl-"));
const baseEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
const launchedGroups: number[] = [];
afterAll(() => {
  // Safety net for a failing case: no test may leave a process group behind.
  for (const pgid of launchedGroups) killQuietly(-pgid);
  rmSync(workDir, { recursive: true, force: true });
});

function killQuietly(target: number): void {
  try {
    process.kill(target, "SIGKILL");
  } catch {
    // ESRCH: already gone, which is the expected case.
  }
}

/** The real launcher, remembering every group it started for the clean-up above. */
function trackedLauncher(): NodeProcessLauncher {
  const launcher = new NodeProcessLauncher({ drainGraceMs: 1_000, strayKillGraceMs: 1_000 });
  const launch = launcher.launch.bind(launcher);
  launcher.launch = (spec) => {
    const launched = launch(spec);
    if (launched.ok) launchedGroups.push(launched.value.pid);
    return launched;
  };
  return launcher;
}

const sh = (command: string, extra: Partial<LaunchSpec> = {}): LaunchSpec => ({
  command: { kind: "shell", command, shell: "/bin/sh" },
  cwd: workDir,
  env: baseEnv,
  ...extra,
});

const plainFile = join(workDir, "plain.txt");
writeFileSync(plainFile, "not a program\n", { mode: 0o644 });

/** Group members that keep their own stdio, so the leader's pipes close when it exits. */
const STDIO_NULL = "</dev/null >/dev/null 2>&1";
const DETACHED = `${STDIO_NULL} &`;

function specFor(scenario: ProcessScenario): LaunchSpec {
  switch (scenario.kind) {
    case "print-and-exit":
      return sh(`printf '%s' "$OUT"; printf '%s' "$ERR" >&2; exit ${scenario.exitCode}`, {
        env: { ...baseEnv, OUT: scenario.stdout, ERR: scenario.stderr },
      });
    case "echo-stdin":
      return sh("cat", scenario.stdin === undefined ? {} : { stdin: scenario.stdin });
    case "ignore-stdin":
      return sh("exit 0", { stdin: scenario.stdin });
    case "exit-by-signal":
      return sh("kill -TERM $$");
    case "run-until-killed":
      return sh("echo ready; exec sleep 1000");
    case "ignore-sigterm":
      return sh("trap '' TERM; echo ready; exec sleep 1000");
    case "grandchild-and-wait":
      // The member says ready itself, once its trap is set, then drops the pipe.
      return sh(
        `(${scenario.grandchildIgnoresSigterm ? "trap '' TERM; " : ""}echo ready; exec sleep 1000 ${STDIO_NULL}) & wait`,
      );
    case "detached-child":
      return sh(
        `${scenario.leavesGroup ? "setsid " : ""}sleep ${scenario.runMs / 1000} ${DETACHED} echo "detached $!"; echo ready`,
      );
    case "grandchild-holds-output":
      return sh("(sleep 0.2; echo late) & echo early");
    case "escapee-and-wait": {
      const trap = scenario.escapeeIgnoresSigterm ? `trap '' TERM; ` : "";
      return sh(`setsid sh -c '${trap}echo "escapee $$"; echo ready; exec sleep 1000 ${STDIO_NULL}' & exec sleep 1000`);
    }
    case "background-holds-output":
      return sh(`sleep 1000 & echo "holder $!"; setsid sleep 1000 & echo "holder $!"; echo ready`);
    case "cannot-start":
      return sh("true", { cwd: join(workDir, "no-such-dir") });
  }
}

/** Independent of the adapter's own probe: asks ps, and ignores zombies (PID 1 here may never reap). */
async function groupAlive(pgid: number): Promise<boolean> {
  const { stdout } = await run("ps", ["-e", "-o", "pgid=,stat="]);
  return stdout
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .some(([group, stat]) => Number(group) === pgid && stat !== undefined && !stat.startsWith("Z"));
}

/** Independent of the adapter's census: asks ps about one pid; a zombie counts as gone. */
async function alive(pid: number): Promise<boolean> {
  try {
    const { stdout } = await run("ps", ["-o", "stat=", "-p", String(pid)]);
    return stdout.trim() !== "" && !stdout.trim().startsWith("Z");
  } catch {
    return false; // ps exits 1 when the pid does not exist
  }
}

describeProcessLauncherContract("NodeProcessLauncher", () => ({
  launcher: trackedLauncher(),
  specFor,
  groupAlive,
  alive,
}));

describe("NodeProcessLauncher specifics", () => {
  const launcher = trackedLauncher();
  const started = (spec: LaunchSpec) => {
    const launched = launcher.launch(spec);
    if (!launched.ok) throw new Error(launched.error.message);
    return launched.value;
  };
  const output = async (spec: LaunchSpec) => {
    const proc = started(spec);
    const [out, , exit] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
    return { out: new TextDecoder().decode(out), exit };
  };

  it("runs the shell as [shell, -c, command], never a login shell", async () => {
    const { out } = await output(sh(`tr '\\0' '|' < /proc/$$/cmdline`));
    expect(out).toBe("/bin/sh|-c|tr '\\0' '|' < /proc/$$/cmdline|");
  });

  it("defaults the shell to $SHELL of the host", async () => {
    const saved = process.env.SHELL;
    process.env.SHELL = "/bin/bash";
    try {
      const { out } = await output({ ...sh('printf %s "$0"'), command: { kind: "shell", command: 'printf %s "$0"' } });
      expect(out).toBe("/bin/bash");
    } finally {
      if (saved === undefined) delete process.env.SHELL;
      else process.env.SHELL = saved;
    }
  });

  it("passes argv untouched, with no shell in between", async () => {
    const args = ["a b", "$HOME", "*", "'q'", ""];
    const { out } = await output({
      ...sh(""),
      command: { kind: "argv", file: "/usr/bin/printf", args: ["[%s]", ...args] },
    });
    expect(out).toBe(args.map((a) => `[${a}]`).join(""));
  });

  it("gives the child exactly the environment it was handed, plus its own process tag", async () => {
    const { out } = await output({
      ...sh(""),
      env: { ONLY: "1" },
      command: { kind: "argv", file: "/usr/bin/env", args: [] },
    });
    expect(out).toMatch(/^ONLY=1\nPI_BG_PROCESS_TAG=[0-9a-f]{32}\n$/);
  });

  it("gives every launch a different tag and keeps the tags of enclosing tasks", async () => {
    const outer = "0123456789abcdef0123456789abcdef";
    const first = await output({ ...sh('printf %s "$PI_BG_PROCESS_TAG"'), env: { PI_BG_PROCESS_TAG: outer } });
    const second = await output({ ...sh('printf %s "$PI_BG_PROCESS_TAG"'), env: { PI_BG_PROCESS_TAG: outer } });
    expect(first.out).toMatch(new RegExp(`^${outer}:[0-9a-f]{32}$`));
    expect(second.out).toMatch(new RegExp(`^${outer}:[0-9a-f]{32}$`));
    expect(first.out).not.toBe(second.out);
  });

  it("makes the child the leader of its own process group", async () => {
    const proc = started(sh("ps -o pgid= -p $$"));
    const [own] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.exited]);
    expect(Number(new TextDecoder().decode(own).trim())).toBe(proc.pid);
  });

  it.each([
    ["a missing argv program", { command: { kind: "argv", file: "/no/such/program", args: [] } }, "ENOENT"],
    ["a bare name not on PATH", { command: { kind: "argv", file: "no-such-program-xyz", args: [] } }, "not found"],
    ["a cwd that is a file", { cwd: plainFile }, "ENOTDIR"],
    ["a program that is not executable", { command: { kind: "argv", file: plainFile, args: [] } }, "EACCES"],
    ["a missing shell", { command: { kind: "shell", command: "true", shell: "/no/such/sh" } }, "ENOENT"],
  ] as const)("reports %s as spawn_failed", (_label, override, fragment) => {
    const launched = launcher.launch({ ...sh("true"), ...override });
    expect(launched.ok).toBe(false);
    if (!launched.ok) {
      expect(launched.error.code).toBe("spawn_failed");
      expect(launched.error.message).toContain(fragment);
    }
  });

  it("runs a relative program path against the cwd", async () => {
    const script = join(workDir, "hello.sh");
    writeFileSync(script, "#!/bin/sh\necho from-script\n");
    chmodSync(script, 0o755);
    const { out, exit } = await output({ ...sh(""), command: { kind: "argv", file: "./hello.sh", args: [] } });
    expect(out).toBe("from-script\n");
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it("never keeps the host alive while a kill escalation is pending", async () => {
    const moduleUrl = pathToFileURL(fileURLToPath(new URL("./node-process-launcher.ts", import.meta.url))).href;
    const script = `
      const { NodeProcessLauncher } = await import(${JSON.stringify(moduleUrl)});
      const launched = new NodeProcessLauncher().launch({
        command: { kind: "shell", shell: "/bin/sh", command: "(trap '' TERM; echo ready; exec sleep 1000 ${STDIO_NULL}) & wait" },
        cwd: ${JSON.stringify(workDir)}, env: { PATH: ${JSON.stringify(baseEnv.PATH)} },
      });
      if (!launched.ok) throw new Error(launched.error.message);
      const proc = launched.value;
      console.log(proc.pid);
      for await (const chunk of proc.stdout) if (String(chunk).includes("ready")) break;
      void proc.killGroup({ graceMs: 600000 });
      // The member shrugs SIGTERM off, so the launch has not ended; the leader has.
      while (await new Promise((resolve) => setTimeout(() => { try { process.kill(proc.pid, 0); resolve(true); } catch { resolve(false); } }, 20)));
      console.log("leader gone");`;
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      timeout: 30_000,
    });
    const [pid, status] = stdout.trim().split("\n");
    launchedGroups.push(Number(pid));
    expect(status).toBe("leader gone");
    expect(await groupAlive(Number(pid))).toBe(true); // the escalation never came: the host had already left
    killQuietly(-Number(pid));
  });
});

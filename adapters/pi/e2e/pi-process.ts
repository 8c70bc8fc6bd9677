import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The installed Pi CLI, run as `process.execPath <cliPath> ...` so no shell or PATH lookup is involved. */
export interface PiCliLocation {
  readonly packageDir: string;
  readonly cliPath: string;
  readonly version: string;
}

const PI_PACKAGE = join("node_modules", "@mariozechner", "pi-coding-agent");
/** Set by scripts/run-tests.mjs for the Pi 1.x lane: the root of the Pi package under test. */
export const TEST_PI_DIR_ENV = "PI_BG_TEST_PI_DIR";
let cached: PiCliLocation | undefined;

/**
 * The Pi under test: the lane's (`PI_BG_TEST_PI_DIR`) or else the nearest installed
 * `@mariozechner/pi-coding-agent` above this file (the devDependency), with its `bin.pi`.
 */
export function locatePiCli(): PiCliLocation {
  if (cached !== undefined) return cached;
  const laneDir = process.env[TEST_PI_DIR_ENV];
  if (laneDir !== undefined && laneDir !== "") {
    cached = readLocation(laneDir, join(laneDir, "package.json"));
    return cached;
  }
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const packageJson = join(dir, PI_PACKAGE, "package.json");
    if (existsSync(packageJson)) {
      cached = readLocation(join(dir, PI_PACKAGE), packageJson);
      return cached;
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(
        "pi CLI not found: no node_modules/@mariozechner/pi-coding-agent above adapters/pi/e2e (run npm install)",
      );
    dir = parent;
  }
}

function readLocation(packageDir: string, packageJson: string): PiCliLocation {
  const manifest = JSON.parse(readFileSync(packageJson, "utf8")) as { version?: unknown; bin?: unknown };
  const bin = manifest.bin;
  const relative =
    typeof bin === "string"
      ? bin
      : typeof bin === "object" && bin !== null
        ? (bin as Record<string, unknown>).pi
        : undefined;
  if (typeof relative !== "string" || typeof manifest.version !== "string") {
    throw new Error(`pi CLI not found: ${packageJson} has no bin.pi or version`);
  }
  return { packageDir, cliPath: resolve(packageDir, relative), version: manifest.version };
}

export interface PiSpawnOptions {
  readonly args: readonly string[];
  /** Merged over this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd: string;
}

const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** Starts pi as the leader of its own process group, so the whole tree can be signalled at once. */
export function spawnPi(options: PiSpawnOptions): ChildProcessWithoutNullStreams {
  const { cliPath } = locatePiCli();
  const child = spawn(process.execPath, [cliPath, ...options.args], {
    cwd: options.cwd,
    env: hostEnv(options.env),
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  const pid = child.pid;
  if (pid !== undefined) {
    liveGroups.add(pid);
    installExitHook();
    child.once("exit", () => liveGroups.delete(pid));
  }
  return child;
}

/**
 * The pi under test finds its own CLI for its children (the host's), so the lane's PI_BG_PI_CLI, meant for
 * package code running inside vitest, is not passed on unless a test sets it on purpose.
 */
function hostEnv(extra: Readonly<Record<string, string>> | undefined): NodeJS.ProcessEnv {
  const { PI_BG_PI_CLI: _forInProcessCode, ...inherited } = process.env;
  return { ...inherited, ...extra };
}

/** Backstop: a test runner that exits while a pi child still runs takes the child's group with it. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const pid of liveGroups) signalGroup(pid, "SIGKILL");
  });
}

/** Signals every process of the group led by `pid`; false when the group no longer exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Resolves on `close` (process exited and its stdio ended). Call it right after `spawnPi`. */
export function childClosed(child: ChildProcessWithoutNullStreams): Promise<ChildExit> {
  return new Promise((resolveExit, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolveExit({ code, signal }));
  });
}

export interface ReapedPi extends ChildExit {
  /** True when pi did not exit within `waitMs` and its group was signalled. */
  readonly forced: boolean;
  /** True when processes of pi's group outlived pi (they are killed). */
  readonly groupSurvivors: boolean;
}

/**
 * Waits up to `waitMs` for the child to exit by itself, then SIGTERM to its group, then SIGKILL after
 * `graceMs`. Members of the group still alive after the leader exited are killed as well.
 */
export async function reapPi(
  child: ChildProcessWithoutNullStreams,
  closed: Promise<ChildExit>,
  waitMs: number,
  graceMs: number,
): Promise<ReapedPi> {
  const pid = child.pid;
  const within = async (ms: number): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>((r) => {
      timer = setTimeout(() => r(false), ms);
    });
    const result = await Promise.race([closed.then(() => true), expired]);
    clearTimeout(timer);
    return result;
  };
  let forced = false;
  if (pid !== undefined && !(await within(waitMs))) {
    forced = true;
    signalGroup(pid, "SIGTERM");
    if (!(await within(graceMs))) signalGroup(pid, "SIGKILL");
  }
  const exit = await closed;
  const groupSurvivors = pid !== undefined && signalGroup(pid, 0);
  if (groupSurvivors && pid !== undefined) signalGroup(pid, "SIGKILL");
  return { ...exit, forced, groupSurvivors };
}

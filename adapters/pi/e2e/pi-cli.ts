import { JsonlSplitter } from "./jsonl-lines.ts";
import type { PiRecord } from "./jsonl-lines.ts";
import { childClosed, locatePiCli, reapPi, spawnPi } from "./pi-process.ts";

export { locatePiCli } from "./pi-process.ts";
export type { PiCliLocation } from "./pi-process.ts";
export type { PiRecord } from "./jsonl-lines.ts";

/** Version of the installed Pi package (from its package.json; no process is started). */
export function piVersion(): string {
  return locatePiCli().version;
}

export interface RunPiOptions {
  /** Pi arguments. `--mode json` is prepended unless the arguments already choose a `--mode`. */
  readonly args: readonly string[];
  /** Merged over this process's environment (pass an isolated agent dir's env here). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Written to pi's stdin, which is then closed (it is closed at once when omitted). */
  readonly stdin?: string;
  /** After this, the process group gets SIGTERM, then SIGKILL after 2 s more. */
  readonly timeoutMs: number;
}

export interface PiRunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** Parsed JSONL records of stdout, in order. */
  readonly events: PiRecord[];
  /** Stdout lines that were not JSON records. */
  readonly noise: string[];
  readonly stdout: string;
  readonly stderr: string;
  /** True when processes of pi's group outlived pi (they were killed). */
  readonly groupSurvivors: boolean;
}

const KILL_GRACE_MS = 2_000;

export async function runPiJson(options: RunPiOptions): Promise<PiRunResult> {
  const choosesMode = options.args.some((arg) => arg === "--mode" || arg.startsWith("--mode="));
  const args = choosesMode ? [...options.args] : ["--mode", "json", ...options.args];
  const child = spawnPi({ args, cwd: options.cwd, ...(options.env !== undefined ? { env: options.env } : {}) });
  const closed = childClosed(child);
  const events: PiRecord[] = [];
  const noise: string[] = [];
  const stdoutParts: Buffer[] = [];
  const stderrParts: Buffer[] = [];
  const splitter = new JsonlSplitter(
    (record) => events.push(record),
    (line) => noise.push(line),
  );
  child.stdout.on("data", (chunk: Buffer) => {
    stdoutParts.push(chunk);
    splitter.push(chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => stderrParts.push(chunk));
  child.stdin.on("error", () => undefined); // pi may exit before reading its stdin
  child.stdin.end(options.stdin ?? "");

  const exit = await reapPi(child, closed, options.timeoutMs, KILL_GRACE_MS);
  splitter.end();
  return {
    code: exit.code,
    signal: exit.signal,
    timedOut: exit.forced,
    events,
    noise,
    stdout: Buffer.concat(stdoutParts).toString("utf8"),
    stderr: Buffer.concat(stderrParts).toString("utf8"),
    groupSurvivors: exit.groupSurvivors,
  };
}

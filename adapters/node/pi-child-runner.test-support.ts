import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChildStageSpec } from "../../ports/fusion-child-runner.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";
import { PiChildRunner, type ChildLimits } from "./pi-child-runner.ts";
import { PiPreparedChild } from "./pi-prepared-child.ts";
import { PROCESS_TAG_VARIABLE, environCarriesTag } from "./process-tag.ts";
import { SystemClock } from "./system-clock.ts";

// The fast tier of PiChildRunner: it drives a stand-in CLI (fixtures/fake-pi-cli.mjs) that speaks the
// frame protocol and misbehaves on request. The real-Pi tier is pi-child-runner.pi.test.ts.
const here = dirname(fileURLToPath(import.meta.url));
export const FAKE_CLI = join(here, "fixtures", "fake-pi-cli.mjs");
export const ROUTE = { provider: "scripted", model: "scripted-a", thinking: "off" } as const;

export interface Setup {
  readonly dir: string;
  readonly record: string;
  readonly spec: ChildStageSpec;
  readonly runner: PiChildRunner;
}

export function setup(behaviour: string, limits: Partial<ChildLimits> = {}, over: Partial<ChildStageSpec> = {}): Setup {
  const dir = mkdtempSync(join(tmpdir(), "pi-child-fake-"));
  const record = join(dir, "record.json");
  const runner = new PiChildRunner({
    childExtensionPath: FAKE_CLI,
    anthropicSanitizerPath: join(dir, "no-such-sanitizer.ts"),
    files: new NodeFileCommitter(),
    clock: new SystemClock(),
    baseEnv: { ...process.env },
    cli: { cliPath: FAKE_CLI, version: undefined, source: "env" },
    limits: { killGraceMs: 300, ...limits },
  });
  const spec: ChildStageSpec = {
    runDir: dir,
    prefix: "candidate-1.attempt-1",
    route: ROUTE,
    tools: [],
    systemPrompt: "SYSTEM",
    cwd: dir,
    env: { FAKE_PI_BEHAVIOUR: behaviour, FAKE_PI_RECORD: record },
    ...over,
  };
  return { dir, record, spec, runner };
}

export function prepared(s: Setup): PiPreparedChild {
  const child = s.runner.prepare(s.spec);
  if (!child.ok) throw new Error(child.error.message);
  if (!(child.value instanceof PiPreparedChild)) throw new Error("expected the node adapter's prepared child");
  return child.value;
}

/** Alive means present and not a zombie. */
export function alive(pid: number): boolean {
  try {
    return !(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").startsWith("Z");
  } catch {
    return false;
  }
}

export const artifact = (s: Setup, suffix: string): string =>
  readFileSync(join(s.dir, `candidate-1.attempt-1.${suffix}`), "utf8");
export const hasArtifact = (s: Setup, suffix: string): boolean =>
  existsSync(join(s.dir, `candidate-1.attempt-1.${suffix}`));

export interface ChildRecord {
  readonly argv: string[];
  readonly stdin: string;
  readonly pid: number;
  readonly grandchildPid?: number;
  /** The names of the child's environment variables. */
  readonly envKeys: readonly string[];
}

export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until `file` holds something that `parse` accepts (the writer may not be done yet). */
export async function awaitFile<T>(file: string, parse: (text: string) => T): Promise<T> {
  for (;;) {
    try {
      if (existsSync(file)) return parse(readFileSync(file, "utf8"));
    } catch {
      // written but not complete yet
    }
    await pause(20);
  }
}

export const recorded = (s: Setup): Promise<ChildRecord> =>
  awaitFile(s.record, (text) => JSON.parse(text) as ChildRecord);

export const never = (): AbortSignal => new AbortController().signal;

/** The launcher's process tag of a live process, read from its environment. */
export function processTagOf(pid: number): string {
  const entry = readFileSync(`/proc/${pid}/environ`, "utf8")
    .split("\0")
    .find((e) => e.startsWith(`${PROCESS_TAG_VARIABLE}=`));
  const tag = entry
    ?.slice(PROCESS_TAG_VARIABLE.length + 1)
    .split(":")
    .at(-1);
  if (tag === undefined || tag === "") throw new Error(`process ${pid} carries no ${PROCESS_TAG_VARIABLE}`);
  return tag;
}

/** Every live (non-zombie) process whose environment carries `tag`. */
export function liveTagged(tag: string): number[] {
  const pids = readdirSync("/proc")
    .filter((e) => /^\d+$/.test(e))
    .map(Number);
  return pids.filter((pid) => {
    if (!alive(pid)) return false;
    try {
      return environCarriesTag(readFileSync(`/proc/${pid}/environ`), tag);
    } catch {
      return false;
    }
  });
}

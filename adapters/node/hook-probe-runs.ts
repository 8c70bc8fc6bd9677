import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  PROBE_PROMPTS,
  PROBE_TOOL,
  type HookProbeScenario,
  type ProbeLine,
  type ProbeRequest,
  type ProbeRun,
  type ProbeRuns,
} from "../../domain/delegate/model/hook-contract-observation.ts";
import { piChildArgs } from "../../domain/shared/model/pi-child-argv.ts";
import type { ProcessLauncher, RunningProcess } from "../../ports/process-launcher.ts";
import { probePiCliFlags } from "./pi-cli-flags-probe.ts";

// Paths, not imports: the probes are child programs, run inside the child Pi.
export const HOOK_PROBE_EXTENSIONS = [
  fileURLToPath(new URL("../pi/child/hook-probe-first.ts", import.meta.url)),
  fileURLToPath(new URL("../pi/child/hook-probe-second.ts", import.meta.url)),
] as const;

const RUN_TIMEOUT_MS = 30_000;
const KILL_GRACE_MS = 2_000;

/** A loopback model for one probe run: the environment that points a Pi at it, and what it received. */
export interface ProbeModel {
  readonly env: Readonly<Record<string, string>>;
  requests(): readonly ProbeRequest[];
  close(): Promise<void>;
}

export interface HookProbeInput {
  readonly launcher: ProcessLauncher;
  readonly nodePath: string;
  readonly cliPath: string;
  /** The environment each probe Pi starts from (PATH, HOME), before its model's variables. */
  readonly baseEnv: Readonly<Record<string, string>>;
  /** Starts a fresh loopback model (one per scenario, so the three runs go at once). */
  readonly model: () => Promise<ProbeModel>;
}

/** Runs the three probe scenarios against the Pi CLI at `cliPath`, at once, each on its own model. */
export async function runHookProbes(input: HookProbeInput): Promise<ProbeRuns> {
  const dir = mkdtempSync(join(tmpdir(), "pi-bg-hook-probe-"));
  try {
    const scenarios: HookProbeScenario[] = ["baseline", "throw", "abort"];
    const runs = await Promise.all(scenarios.map((scenario) => runOne(input, scenario, dir)));
    return { baseline: runs[0] as ProbeRun, throw: runs[1] as ProbeRun, abort: runs[2] as ProbeRun };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runOne(input: HookProbeInput, scenario: HookProbeScenario, dir: string): Promise<ProbeRun> {
  const model = await input.model();
  try {
    const log = join(dir, `${scenario}.jsonl`);
    const args = piChildArgs(
      {
        role: "hook-probe",
        tools: { allow: [PROBE_TOOL], deny: [] },
        extensions: [...HOOK_PROBE_EXTENSIONS],
        prompt: PROBE_PROMPTS[scenario],
      },
      probePiCliFlags(input.nodePath, input.cliPath),
    );
    const started = input.launcher.launch({
      command: { kind: "argv", file: input.nodePath, args: [input.cliPath, ...args] },
      cwd: dir,
      env: { ...input.baseEnv, ...model.env, HOOK_PROBE_LOG: log, HOOK_PROBE_SCENARIO: scenario },
    });
    if (!started.ok) throw new Error(`the hook probe could not start the Pi CLI: ${started.error.message}`);
    const { stdout, timedOut } = await collect(started.value);
    const lines = existsSync(log)
      ? readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as ProbeLine)
      : [];
    const events = stdout.split("\n").flatMap((line) => {
      try {
        const record = JSON.parse(line) as unknown;
        return typeof record === "object" && record !== null && typeof (record as { type?: unknown }).type === "string"
          ? [record as ProbeRun["events"][number]]
          : [];
      } catch {
        return [];
      }
    });
    return { lines, requests: [...model.requests()], events, stdout, timedOut };
  } finally {
    await model.close();
  }
}

async function collect(child: RunningProcess): Promise<{ stdout: string; timedOut: boolean }> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void child.killGroup({ graceMs: KILL_GRACE_MS });
  }, RUN_TIMEOUT_MS);
  const read = async (stream: AsyncIterable<Uint8Array>): Promise<string> => {
    const parts: Uint8Array[] = [];
    for await (const part of stream) parts.push(part);
    return Buffer.concat(parts).toString("utf8");
  };
  try {
    const [stdout] = await Promise.all([read(child.stdout), read(child.stderr), child.exited]);
    return { stdout, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

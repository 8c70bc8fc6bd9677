import { existsSync, statSync } from "node:fs";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { Clock } from "../../ports/clock.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import type { ProcessLauncher } from "../../ports/process-launcher.ts";
import type { ChildError, ChildStageSpec, FusionChildRunner, PreparedChild } from "../../ports/fusion-child-runner.ts";
import { buildFusionChildArgv } from "./fusion-child-argv.ts";
import { confinedChildEnv } from "./confined-child-env.ts";
import { nodeReadScope } from "./node-read-scope.ts";
import { guardedSecretValues } from "./guarded-secrets.ts";
import type { ReadScope, ReadScopeError } from "../../domain/confinement/model/read-scope.ts";
import { NodeProcessLauncher } from "./node-process-launcher.ts";
import { detectPiChildCli, type PiChildCli } from "./pi-child-command.ts";
import type { PiCliLocation } from "./pi-cli-locator.ts";
import { DEFAULT_CHILD_LIMITS, type ChildLimits } from "./fusion-child-limits.ts";
import { PiPreparedChild } from "./pi-prepared-child.ts";
import { ChildAgentDir } from "./fusion-child-agent-dir.ts";
import { CHILD_RETRY_POLICY, type ChildRetryPolicy } from "./fusion-child-settings.ts";
import { userAgentDir } from "./user-agent-dir.ts";

export { DEFAULT_CHILD_LIMITS, type ChildLimits } from "./fusion-child-limits.ts";

export interface PiChildRunnerOptions {
  /** adapters/pi/child/fusion-child-extension.ts (the composition root passes the absolute path). */
  readonly childExtensionPath: string;
  /** adapters/pi/child/anthropic-sanitizer-extension.ts, passed only to `anthropic` children. */
  readonly anthropicSanitizerPath: string;
  readonly files: FileCommitter;
  readonly clock: Clock;
  /** The environment children inherit (minus credentials). Default: this process's. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Default: located once with `locatePiCli` (honours PI_BG_PI_CLI). */
  readonly cli?: PiCliLocation;
  readonly limits?: Partial<ChildLimits>;
  /** Needs deferred stdin. Default: the tagged `NodeProcessLauncher`, so a stop reaches every descendant. */
  readonly launcher?: ProcessLauncher;
  /** How the children's Pi retries transient provider failures. Default: CHILD_RETRY_POLICY. */
  readonly retry?: ChildRetryPolicy;
}

/**
 * Fusion stages as direct `pi --mode text` children. `prepare` starts the child at once; Pi 0.73.1 loads
 * its extensions, models and settings and then blocks reading stdin to EOF before any session or model
 * work (observed: the extension factory ran ~0.7 s after spawn, `session_start` and the first model
 * request only after stdin closed), so a pre-started child sees nothing early. Pi trims the prompt it
 * reads from stdin (`data.trim()`), so leading/trailing whitespace of a prompt never reaches the model.
 * An attempt settles as soon as the final `stop` frame and the matching stdout are in; Pi's own
 * teardown (~0.3–0.5 s) then finishes in the background and the child's tree is reaped.
 *
 * Transient provider failures are retried by the child's Pi alone, on its pinned route, as the runner's
 * own agent dir for its children sets it (fusion-child-agent-dir.ts); the runner itself never retries.
 */
export class PiChildRunner implements FusionChildRunner {
  readonly #options: PiChildRunnerOptions;
  readonly #limits: ChildLimits;
  #cli: PiChildCli | undefined;
  readonly #live = new Set<PiPreparedChild>();
  readonly #launcher: ProcessLauncher;
  readonly #agentDir: ChildAgentDir;

  constructor(options: PiChildRunnerOptions) {
    this.#options = options;
    this.#launcher = options.launcher ?? new NodeProcessLauncher();
    this.#limits = { ...DEFAULT_CHILD_LIMITS, ...options.limits };
    this.#agentDir = new ChildAgentDir(userAgentDir(this.#baseEnv), options.retry ?? CHILD_RETRY_POLICY);
  }

  readScope(cwd: string): Result<ReadScope, ReadScopeError> {
    return nodeReadScope(cwd, this.#baseEnv, this.#agentDir.path);
  }

  guardedSecrets(): readonly string[] {
    return guardedSecretValues(this.#baseEnv);
  }

  prepare(spec: ChildStageSpec): Result<PreparedChild, ChildError> {
    const cli = this.#locate();
    if (!cli.ok) return cli;
    const missing = this.#missingExtension(spec);
    if (missing !== undefined) return spawnFailed(missing);
    if (!isDirectory(spec.cwd)) return spawnFailed(`the working directory ${spec.cwd} does not exist`);
    const args = buildFusionChildArgv({
      cliPath: cli.value.cliPath,
      flags: cli.value.flags,
      route: spec.route,
      tools: spec.tools,
      systemPrompt: spec.systemPrompt,
      childExtensionPath: this.#options.childExtensionPath,
      anthropicSanitizerPath: this.#options.anthropicSanitizerPath,
      ...(spec.extensions === undefined ? {} : { extensions: spec.extensions }),
    });
    if (!args.ok) return args;
    const agentDir = this.#agentDir.sync();
    if (!agentDir.ok) return spawnFailed(`the children's agent dir cannot be prepared: ${agentDir.error}`);
    const env = {
      ...confinedChildEnv(this.#baseEnv, spec.route.provider, spec.env),
      PI_CODING_AGENT_DIR: agentDir.value,
    };
    const prepared = new PiPreparedChild(spec, this.#limits, this.#options.files, this.#options.clock);
    const started = this.#launcher.launch({
      command: { kind: "argv", file: process.execPath, args: args.value },
      cwd: spec.cwd,
      env,
      stdin: "deferred",
    });
    if (!started.ok) return spawnFailed(`cannot start the Pi CLI: ${started.error.message}`);
    prepared.attach(started.value);
    this.#live.add(prepared);
    const forget = (): boolean => this.#live.delete(prepared);
    prepared.whenGone().then(forget, forget); // a failure to reap surfaces in shutdown(), which awaits it again
    return ok(prepared);
  }

  /**
   * For session shutdown: stops every child of this runner (unsent ones are discarded, running ones end
   * as cancelled) and resolves when all their process groups are gone, including children whose answer
   * was already taken while Pi was still tearing down; then the children's agent dir is removed.
   */
  async shutdown(): Promise<void> {
    const children = [...this.#live];
    await Promise.all(
      children.map(async (child) => {
        await child.discard();
        await child.whenGone();
      }),
    );
    this.#agentDir.remove();
  }

  get #baseEnv(): Readonly<Record<string, string | undefined>> {
    return this.#options.baseEnv ?? process.env;
  }

  #locate(): Result<PiChildCli, ChildError> {
    if (this.#cli !== undefined) return ok(this.#cli);
    const found = detectPiChildCli(this.#baseEnv, this.#options.cli);
    if (!found.ok) return spawnFailed(found.error.message);
    this.#cli = found.value; // the CLI and its flags are detected once per runner
    return ok(found.value);
  }

  #missingExtension(spec: ChildStageSpec): string | undefined {
    if (!existsSync(this.#options.childExtensionPath))
      return `the Fusion child extension ${this.#options.childExtensionPath} is missing`;
    const absent = (spec.extensions ?? []).find((path) => !existsSync(path));
    if (absent !== undefined) return `the stage extension ${absent} is missing`;
    if (spec.route.provider === "anthropic" && !existsSync(this.#options.anthropicSanitizerPath)) {
      return `the Anthropic sanitizer extension ${this.#options.anthropicSanitizerPath} is missing; an anthropic child would be rejected by the provider`;
    }
    return undefined;
  }
}

function spawnFailed(message: string): Result<never, ChildError> {
  return err({ code: "child_spawn_failed", message: `${message}; no Fusion child was started (child_spawn_failed)` });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

import { readScopeFor, type ReadScope, type ReadScopeError } from "../../domain/confinement/model/read-scope.ts";
import { createHash } from "node:crypto";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import { TOOL_CALL_LOG_ENV } from "../../domain/fusion/model/candidate-launch.ts";
import { addUsage, ZERO_USAGE, type Usage } from "../../domain/shared/model/usage.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import { writeArtifacts, writeAuditLog, type ScriptedAuditLog } from "./fake-child-artifacts.ts";
import type {
  ChildError,
  ChildErrorCode,
  ChildMessageFrame,
  ChildRetry,
  ChildStageResult,
  ChildStageSpec,
  FusionChildRunner,
  PreparedChild,
} from "../../ports/fusion-child-runner.ts";

/** What one attempt (by prefix) does when its prompt arrives. */
export interface FakeStageScript {
  /** The answer, fixed or computed from the prompt. */
  readonly answer?: string | ((prompt: string, spec: ChildStageSpec) => string);
  readonly usage?: Usage;
  /** Fail instead of answering, reporting the usage consumed so far. */
  readonly fail?: {
    readonly code: ChildErrorCode;
    readonly message?: string;
    readonly partialText?: string;
    readonly usage?: Usage;
    /** The final frame's stop reason (default "error"; a model cut at its output limit says "length"). */
    readonly stopReason?: string;
  };
  /** `prepare` fails this many times (default: every time) with this code. */
  readonly prepareFail?: { readonly code: ChildErrorCode; readonly times?: number };
  /** Answer (or fail) after this many real milliseconds. */
  readonly delayMs?: number;
  /** Reports working (its start-up over) this many real milliseconds after the prompt, default 0; not once settled. */
  readonly workingAfterMs?: number;
  /** Never answer; only an abort ends the attempt. */
  readonly hang?: boolean;
  /** Usage reported when the attempt is cancelled mid-flight. */
  readonly cancelUsage?: Usage;
  /** Tool calls an audited child makes: that many valid audit lines are written, and its frame reports them. */
  readonly toolCalls?: number;
  /** The count the frame reports, when it should differ from `toolCalls`. */
  readonly reportedToolCalls?: number;
  /** Replaces the audit log an audited child writes: these exact bytes, or no file at all. */
  readonly auditLog?: ScriptedAuditLog;
  /** Provider calls the child's Pi retried before it answered or failed: an error frame each, their usage added. */
  readonly retries?: readonly ChildRetry[];
}

export interface FakeRunnerOptions {
  /**
   * Where an audited child (its spec env names `PI_FUSION_TOOL_CALL_LOG_PATH`) writes its tool-call log,
   * as the real audit extension would: the same committer the orchestrator reads from. Every attempt
   * also writes its `<prefix>.events.jsonl` and `.stderr.txt` there, as the real runner does.
   */
  readonly files?: FileCommitter;
  /** The credential values the fake parent holds (guardedSecrets). */
  readonly secrets?: readonly string[];
  /** Scripts an attempt no prefix script covers, once its prompt arrives (a scripted model, say). */
  readonly unscripted?: (spec: ChildStageSpec, prompt: string) => FakeStageScript | undefined;
}

export type FakeRunnerEvent =
  | { readonly kind: "prepare"; readonly prefix: string }
  | { readonly kind: "prepare_failed"; readonly prefix: string; readonly code: ChildErrorCode }
  | { readonly kind: "send"; readonly prefix: string }
  | { readonly kind: "working"; readonly prefix: string }
  | { readonly kind: "settled"; readonly prefix: string; readonly outcome: "answered" | ChildErrorCode }
  | { readonly kind: "discard"; readonly prefix: string };

/**
 * The FusionChildRunner twin: scripted answers, failures, delays and usage per attempt prefix, and a
 * log of every prepare/send/settle/discard so tests can assert how many children existed, what bytes
 * each was sent, and in which order. An unscripted prefix fails loudly.
 */
export const FAKE_HOME = "/nonexistent-home/fake-user";

export class FakeFusionChildRunner implements FusionChildRunner {
  readonly events: FakeRunnerEvent[] = [];
  readonly specs = new Map<string, ChildStageSpec>();
  /** Prompts that reached the "model": sent while the attempt's signal was not yet aborted. */
  readonly modelPrompts: string[] = [];
  readonly #scripts = new Map<string, FakeStageScript>();
  readonly #prompts = new Map<string, string>();
  readonly #live = new Set<string>();
  readonly #prepareFailures = new Map<string, number>();
  readonly #sentWaiters = new Map<string, Array<(prompt: string) => void>>();

  readonly files: FileCommitter | undefined;
  readonly #secrets: readonly string[];
  readonly #unscripted: FakeRunnerOptions["unscripted"];

  constructor(scripts: Readonly<Record<string, FakeStageScript>> = {}, options: FakeRunnerOptions = {}) {
    for (const [prefix, script] of Object.entries(scripts)) this.script(prefix, script);
    this.files = options.files;
    this.#secrets = options.secrets ?? [];
    this.#unscripted = options.unscripted;
  }

  script(prefix: string, script: FakeStageScript): this {
    this.#scripts.set(prefix, script);
    return this;
  }

  /** Outside a Git repository as far as the fake knows, under a home directory no project is ever in. */
  readScope(cwd: string): Result<ReadScope, ReadScopeError> {
    return readScopeFor({ cwd, gitTop: undefined, home: FAKE_HOME, agentDir: `${FAKE_HOME}/.pi/agent` });
  }

  /** Secrets the fake's parent holds (options.secrets; none by default). */
  guardedSecrets(): readonly string[] {
    return this.#secrets;
  }

  prepare(spec: ChildStageSpec): Result<PreparedChild, ChildError> {
    const script = this.#scripts.get(spec.prefix);
    if (script?.prepareFail !== undefined && this.#shouldFailPrepare(spec.prefix, script.prepareFail.times)) {
      this.events.push({ kind: "prepare_failed", prefix: spec.prefix, code: script.prepareFail.code });
      return err({ code: script.prepareFail.code, message: `scripted prepare failure for ${spec.prefix}` });
    }
    if (this.specs.has(spec.prefix)) throw new Error(`child ${spec.prefix} prepared twice`);
    if (spec.env?.[TOOL_CALL_LOG_ENV] !== undefined && this.files === undefined) {
      throw new Error(
        `FakeFusionChildRunner: ${spec.prefix} must write a tool-call audit log; construct the fake with { files }`,
      );
    }
    this.events.push({ kind: "prepare", prefix: spec.prefix });
    this.specs.set(spec.prefix, spec);
    this.#live.add(spec.prefix);
    return ok(new FakePreparedChild(this, spec));
  }

  /** Prefixes of every successful prepare, in order. */
  get prepared(): string[] {
    return this.events.filter((e) => e.kind === "prepare").map((e) => e.prefix);
  }

  /** Children prepared and not yet settled or discarded. */
  liveChildren(): string[] {
    return [...this.#live];
  }

  sentPrompt(prefix: string): string | undefined {
    return this.#prompts.get(prefix);
  }

  /** Resolves with the prompt once `prefix` has been sent one. */
  whenSent(prefix: string): Promise<string> {
    const sent = this.#prompts.get(prefix);
    if (sent !== undefined) return Promise.resolve(sent);
    return new Promise((resolve) => this.#sentWaiters.set(prefix, [...(this.#sentWaiters.get(prefix) ?? []), resolve]));
  }

  /** Position of an event in the log, or -1. */
  indexOf(kind: FakeRunnerEvent["kind"], prefix: string): number {
    return this.events.findIndex((e) => e.kind === kind && e.prefix === prefix);
  }

  recordSend(spec: ChildStageSpec, prompt: string): FakeStageScript | undefined {
    if (!this.#live.has(spec.prefix))
      throw new Error(`prompt sent to ${spec.prefix}, which is not a live unsent child`);
    if (this.#prompts.has(spec.prefix)) throw new Error(`second prompt sent to ${spec.prefix}`);
    this.#prompts.set(spec.prefix, prompt);
    this.events.push({ kind: "send", prefix: spec.prefix });
    for (const resolve of this.#sentWaiters.get(spec.prefix) ?? []) resolve(prompt);
    this.#sentWaiters.delete(spec.prefix);
    return this.#scripts.get(spec.prefix) ?? this.#unscripted?.(spec, prompt);
  }

  recordSettled(prefix: string, outcome: "answered" | ChildErrorCode): void {
    this.#live.delete(prefix);
    this.events.push({ kind: "settled", prefix, outcome });
  }

  recordDiscard(prefix: string): void {
    if (this.#prompts.has(prefix)) throw new Error(`discard of ${prefix} after its prompt was sent`);
    if (this.#live.delete(prefix)) this.events.push({ kind: "discard", prefix });
  }

  #shouldFailPrepare(prefix: string, times: number | undefined): boolean {
    const failed = this.#prepareFailures.get(prefix) ?? 0;
    if (times !== undefined && failed >= times) return false;
    this.#prepareFailures.set(prefix, failed + 1);
    return true;
  }
}

class FakePreparedChild implements PreparedChild {
  #used = false;

  constructor(
    private readonly runner: FakeFusionChildRunner,
    private readonly spec: ChildStageSpec,
  ) {}

  async send(
    prompt: string,
    signal: AbortSignal,
    onWorking?: () => void,
  ): Promise<Result<ChildStageResult, ChildError>> {
    if (this.#used) throw new Error(`child ${this.spec.prefix} used twice`);
    this.#used = true;
    const script = this.runner.recordSend(this.spec, prompt);
    if (!signal.aborted) this.runner.modelPrompts.push(prompt);
    const working = setTimeout(() => {
      if (signal.aborted) return;
      this.runner.events.push({ kind: "working", prefix: this.spec.prefix });
      onWorking?.();
    }, script?.workingAfterMs ?? 0);
    const finished = await waitFor(script, signal);
    clearTimeout(working);
    if (finished) await writeAuditLog(this.runner.files, this.spec, script?.toolCalls ?? 0, script?.auditLog);
    const outcome = finished
      ? retried(this.spec, script, answer(this.spec, prompt, script))
      : cancelled(this.spec, script);
    await writeArtifacts(this.runner.files, this.spec, outcome.ok ? outcome.value : outcome.error.partial);
    this.runner.recordSettled(this.spec.prefix, outcome.ok ? "answered" : outcome.error.code);
    return outcome;
  }

  async discard(): Promise<void> {
    if (this.#used) throw new Error(`discard of ${this.spec.prefix} after use`);
    this.#used = true;
    this.runner.recordDiscard(this.spec.prefix);
  }
}

/** True when the script's time is up, false when the signal aborted first. */
function waitFor(script: FakeStageScript | undefined, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  const delay = script?.hang === true ? undefined : (script?.delayMs ?? 0);
  return new Promise((resolve) => {
    const timer = delay === undefined ? undefined : setTimeout(() => done(true), delay);
    const onAbort = () => done(false);
    function done(value: boolean): void {
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    }
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function answer(
  spec: ChildStageSpec,
  prompt: string,
  script: FakeStageScript | undefined,
): Result<ChildStageResult, ChildError> {
  if (script === undefined) return err({ code: "child_exit_failed", message: `no fake script for ${spec.prefix}` });
  if (script.fail !== undefined) {
    const text = script.fail.partialText ?? "";
    const usage = script.fail.usage ?? ZERO_USAGE;
    const partial = stageResult(spec, text, usage, script.fail.stopReason ?? "error");
    return err({
      code: script.fail.code,
      message: script.fail.message ?? `scripted ${script.fail.code} for ${spec.prefix}`,
      partial,
    });
  }
  const text = typeof script.answer === "function" ? script.answer(prompt, spec) : (script.answer ?? "");
  const calls = script.reportedToolCalls ?? script.toolCalls ?? 0;
  const done = stageResult(spec, text, script.usage ?? ZERO_USAGE, "stop");
  if (calls === 0) return ok(done);
  // As Pi would: one `toolUse` message with the calls (no usage of its own here), then the answer.
  const asked: ChildMessageFrame = { ...frameOf(spec, "", ZERO_USAGE, "toolUse"), toolCalls: calls };
  return ok({ ...done, frames: [asked, ...done.frames] });
}

/** As the real runner reads a child that retried: the failed calls' frames first, their usage in the sum. */
function retried(
  spec: ChildStageSpec,
  script: FakeStageScript | undefined,
  outcome: Result<ChildStageResult, ChildError>,
): Result<ChildStageResult, ChildError> {
  const retries = script?.retries ?? [];
  if (retries.length === 0) return outcome;
  const add = (result: ChildStageResult): ChildStageResult => ({
    ...result,
    frames: [
      ...retries.map((r) => ({ ...frameOf(spec, "", r.usage, "error"), errorMessage: r.error })),
      ...result.frames,
    ],
    usage: retries.reduce((sum, r) => addUsage(sum, r.usage), result.usage),
    retries,
  });
  if (outcome.ok) return ok(add(outcome.value));
  const partial = outcome.error.partial;
  return err({ ...outcome.error, ...(partial === undefined ? {} : { partial: add(partial) }) });
}

function cancelled(spec: ChildStageSpec, script: FakeStageScript | undefined): Result<ChildStageResult, ChildError> {
  const partial = stageResult(spec, "", script?.cancelUsage ?? ZERO_USAGE, "aborted");
  return err({ code: "child_cancelled", message: `${spec.prefix} was cancelled`, partial });
}

function frameOf(spec: ChildStageSpec, text: string, usage: Usage, stopReason: string): ChildMessageFrame {
  return {
    provider: spec.route.provider,
    model: spec.route.model,
    stopReason,
    textBytes: Buffer.byteLength(text, "utf8"),
    textSha256: createHash("sha256").update(text).digest("hex"),
    toolCalls: 0,
    usage,
  };
}

function stageResult(spec: ChildStageSpec, text: string, usage: Usage, stopReason: string): ChildStageResult {
  return {
    text,
    frames: [frameOf(spec, text, usage, stopReason)],
    usage,
    exitCode: stopReason === "stop" ? 0 : 1,
    durationMs: 0,
  };
}

import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { RandomSource } from "../../../ports/random-source.ts";
import type { WorktreeInspector } from "../../../ports/worktree-inspector.ts";
import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { err, type Result, type TypedError } from "../../shared/model/result.ts";
import type { RunRequest } from "../../tasks/model/run-request.ts";
import type { AttestedPiFacts, TaskSnapshot } from "../../tasks/model/task-snapshot.ts";
import type { LaunchPlan, StartError, TaskRuntime } from "../../tasks/service/task-runtime.ts";
import type { ContextWindowIndex } from "../../telemetry/model/pi-event-telemetry.ts";
import type { AttestedRunRequest } from "../model/attested-arguments.ts";
import { logicalPiArgv } from "../model/attested-pi-argv.ts";
import { refusal } from "../model/attested-refusal.ts";
import type { CredentialClass } from "../model/credential-class.ts";
import { blockingChanges, describeChanges, parsePorcelainZ } from "../model/worktree-status.ts";
import { AttestedStderrCapture, AttestedStdoutCapture } from "./attested-captures.ts";
import { AttestedCompletion, type AttestedPaths } from "./attested-completion.ts";
import { AttestedReport } from "./attested-report.ts";
import { EvidenceFile } from "./evidence-file.ts";

/** Raw evidence files may be large (message_update events repeat the partial message), but not unbounded. */
export const ATTESTED_EVIDENCE_CAP_BYTES = 512 * 1024 * 1024;

export interface AttestedRunnerDeps {
  readonly runtime: TaskRuntime;
  readonly files: FileCommitter;
  readonly random: RandomSource;
  readonly worktree: WorktreeInspector;
}

export interface AttestedRunnerConfig {
  readonly cwd: string;
  readonly taskDir: string;
  readonly displayDir: string;
  /** How Pi is started without a shell (e.g. the Node binary and Pi's cli.js); a string says why it cannot be. */
  readonly piLaunch: { readonly file: string; readonly args: readonly string[] } | string;
  /** The child's whole environment (credential variables already removed). */
  readonly childEnv: Readonly<Record<string, string>>;
  readonly windows: ContextWindowIndex;
  readonly evidenceCapBytes?: number;
}

export type AttestedStartError =
  | StartError
  | TypedError<
      "pi_cli_not_found" | "attested_git_unavailable" | "attested_worktree_dirty" | "attested_report_unreadable"
    >;

/**
 * `bg_run_pi_attested`: one direct `pi --mode json` child (no shell, prompt over stdin) run as an ordinary
 * background task, its raw events and stderr kept apart, and an attestation sidecar written last when the
 * run, the worktree and the report all hold. Every refusal happens before any file or process exists.
 */
export class AttestedPiRunner {
  constructor(
    private readonly deps: AttestedRunnerDeps,
    private readonly config: AttestedRunnerConfig,
  ) {}

  async start(
    request: AttestedRunRequest,
    credential: CredentialClass,
  ): Promise<Result<TaskSnapshot, AttestedStartError>> {
    const { runtime, worktree } = this.deps;
    if (runtime.isShuttingDown)
      return err({
        code: "runtime_shutting_down",
        message: "The Pi session is shutting down; no attested run was started (runtime_shutting_down).",
      });
    const launch = this.config.piLaunch;
    if (typeof launch === "string")
      return refusal("pi_cli_not_found", `the Pi CLI cannot be started directly: ${launch}`);
    const before = await worktree.inspect(this.config.cwd);
    if (!before.ok)
      return refusal(
        "attested_git_unavailable",
        `an attested run needs a Git worktree with a commit: ${before.error.message} (${before.error.code})`,
      );
    const cwdPrefix =
      before.value.dir === before.value.root ? "" : `${before.value.dir.slice(before.value.root.length + 1)}/`;
    const dirty = blockingChanges(parsePorcelainZ(before.value.porcelain), { cwdPrefix });
    if (dirty.length > 0)
      return refusal(
        "attested_worktree_dirty",
        `the Git worktree must be clean at start; commit or stash first: ${describeChanges(dirty)}`,
      );
    const report = new AttestedReport(this.deps.files, worktree, before.value.dir, request.reportPath);
    const reportBefore = await report.before();
    if (!reportBefore.ok) return refusal("attested_report_unreadable", reportBefore.error);

    const paths = this.paths(`b${this.deps.random.hex(16)}`);
    const prompt = new TextEncoder().encode(request.prompt);
    const args = logicalPiArgv(request).slice(1);
    const processArgv = [launch.file, ...launch.args, ...args];
    const facts: AttestedPiFacts = {
      provider: request.provider,
      model: request.model,
      ...(request.thinking === undefined ? {} : { thinking: request.thinking }),
      authClass: credential.authClass,
      reportPath: request.reportPath,
      eventsPath: paths.shown(".pi-events.jsonl"),
      stderrPath: paths.shown(".stderr"),
      promptSha256: sha256Hex(prompt),
    };
    const cap = this.config.evidenceCapBytes ?? ATTESTED_EVIDENCE_CAP_BYTES;
    const stdout = new AttestedStdoutCapture(
      new EvidenceFile(this.deps.files, paths.file(".pi-events.jsonl"), cap),
      this.config.windows,
    );
    const stderr = new AttestedStderrCapture(
      new EvidenceFile(this.deps.files, paths.file(".stderr"), cap),
      paths.shown(".stderr"),
    );
    const completion = new AttestedCompletion(this.deps.files, worktree, {
      request,
      credential,
      facts,
      paths,
      before: before.value,
      cwdPrefix,
      prompt,
      processArgv,
      stdout,
      report,
      reportBefore: reportBefore.value,
    });
    const plan: LaunchPlan = {
      id: paths.id,
      command: { kind: "argv", file: launch.file, args: [...launch.args, ...args] },
      stdin: prompt,
      env: this.config.childEnv,
      stdoutFilter: stdout,
      stderrFilter: stderr,
      completion,
      facets: { attestedPi: facts },
    };
    return runtime.start(this.runRequest(request, prompt.length), plan);
  }

  private runRequest(request: AttestedRunRequest, promptBytes: number): RunRequest {
    return {
      name: request.name,
      command: `${logicalPiArgv(request).map(displayWord).join(" ")} < prompt (${promptBytes} bytes on stdin)`,
      isAgent: true,
      description: `Attested Pi run; must write ${request.reportPath}`,
      notifyOnCompletion: false,
      triggerOnCompletion: false,
      onOutputCap: "keep_head_and_tail",
      ...(request.timeoutSeconds === undefined ? {} : { timeoutSeconds: request.timeoutSeconds }),
    };
  }

  private paths(id: string): AttestedPaths {
    const { taskDir, displayDir } = this.config;
    return {
      id,
      taskDir,
      displayDir,
      file: (suffix) => `${taskDir}/${id}${suffix}`,
      shown: (suffix) => `${displayDir}/${id}${suffix}`,
    };
  }
}

function displayWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

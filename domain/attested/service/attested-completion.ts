import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { WorktreeInspector, WorktreeState } from "../../../ports/worktree-inspector.ts";
import { sha256Hex } from "../../shared/model/canonical-json.ts";
import type { AttestedPiFacts, TaskSnapshot } from "../../tasks/model/task-snapshot.ts";
import type { TaskCompletion } from "../../tasks/service/execution-hooks.ts";
import type { AttestedRunRequest } from "../model/attested-arguments.ts";
import { logicalPiArgv } from "../model/attested-pi-argv.ts";
import { judgeAttestedStream, type AttestedStreamFacts } from "../model/attested-verdict.ts";
import type { CredentialClass } from "../model/credential-class.ts";
import { sealAttestation, type AttestationBody, type FileDigest } from "../model/pi-attestation.ts";
import { blockingChanges, describeChanges, parsePorcelainZ } from "../model/worktree-status.ts";
import type { AttestedStdoutCapture } from "./attested-captures.ts";
import type { AttestedReport, ReportBefore } from "./attested-report.ts";
import { digestFile } from "./evidence-file.ts";

/** Where one attested task keeps its files: absolute paths and the cwd-relative ones records show. */
export interface AttestedPaths {
  readonly id: string;
  readonly taskDir: string;
  readonly displayDir: string;
  readonly file: (suffix: string) => string;
  readonly shown: (suffix: string) => string;
}

export interface AttestedCompletionInput {
  readonly request: AttestedRunRequest;
  readonly credential: CredentialClass;
  readonly facts: AttestedPiFacts;
  readonly paths: AttestedPaths;
  readonly before: WorktreeState;
  readonly cwdPrefix: string;
  readonly prompt: Uint8Array;
  readonly processArgv: readonly string[];
  readonly stdout: AttestedStdoutCapture;
  readonly report: AttestedReport;
  readonly reportBefore: ReportBefore;
}

interface Judged {
  readonly verdict: AttestedStreamFacts;
  readonly after: WorktreeState;
  readonly report: FileDigest;
}

/**
 * Success of an attested run needs more than exit 0: the event stream's verdict, an unchanged and clean
 * worktree (only the report may be new), and a report this run wrote. The sidecar is the task's last write.
 */
export class AttestedCompletion implements TaskCompletion {
  private judged: Judged | undefined;

  constructor(
    private readonly files: FileCommitter,
    private readonly worktree: WorktreeInspector,
    private readonly input: AttestedCompletionInput,
  ) {}

  async judge(): Promise<{ readonly failure?: string; readonly patch?: Partial<TaskSnapshot> }> {
    const { request, before, cwdPrefix, paths } = this.input;
    const fail = (message: string) => ({
      failure: `Attested run failed: ${message}. Raw evidence kept in ${paths.shown(".pi-events.jsonl")} and ${paths.shown(".stderr")}; no attestation was written.`,
    });
    const verdict = judgeAttestedStream(this.input.stdout.state, request);
    if (!verdict.ok) return fail(verdict.error.message);
    const observed = {
      ...this.input.facts,
      sessionId: verdict.value.sessionId,
      finalStopReason: verdict.value.finalStopReason,
    };
    const after = await this.worktree.inspect(before.dir);
    if (!after.ok)
      return {
        ...fail(`the worktree could not be read at finish: ${after.error.message} (${after.error.code})`),
        patch: { attestedPi: observed },
      };
    if (after.value.head !== before.head || after.value.tree !== before.tree) {
      return {
        ...fail(`HEAD moved during the run (${before.head} → ${after.value.head}) (attested_git_head_moved)`),
        patch: { attestedPi: observed },
      };
    }
    const dirty = blockingChanges(parsePorcelainZ(after.value.porcelain), {
      cwdPrefix,
      allowedReport: request.reportPath,
    });
    if (dirty.length > 0)
      return {
        ...fail(
          `the worktree changed beyond the report: ${describeChanges(dirty)} (attested_worktree_dirty_at_finish)`,
        ),
        patch: { attestedPi: observed },
      };
    const report = await this.input.report.written(this.input.reportBefore);
    if (typeof report === "string") return { ...fail(report), patch: { attestedPi: observed } };
    this.judged = { verdict: verdict.value, after: after.value, report };
    return { patch: { attestedPi: observed, attestationPath: paths.shown(".attestation.json") } };
  }

  async seal(terminal: TaskSnapshot): Promise<TaskSnapshot> {
    const failed = (message: string): TaskSnapshot => {
      const { attestationPath: _unwritten, ...rest } = terminal;
      return {
        ...rest,
        status: "failed",
        error: `Attested run failed: ${message}; no attestation was written (raw evidence kept)`,
      };
    };
    if (this.judged === undefined) return failed("the run was never judged");
    const { paths } = this.input;
    const digests = await Promise.all(
      [".output", ".pi-events.jsonl", ".stderr", ".json"].map((suffix) =>
        digestFile(this.files, paths.file(suffix), paths.shown(suffix)),
      ),
    );
    const [output, events, stderr, metadata] = digests;
    for (const digest of digests)
      if (!digest.ok) return failed(`${digest.error.path} could not be hashed: ${digest.error.message}`);
    if (!output?.ok || !events?.ok || !stderr?.ok || !metadata?.ok) return failed("a task file could not be hashed");
    const body = this.body(terminal, this.judged, {
      output: output.value,
      events: events.value,
      stderr: stderr.value,
      metadata: metadata.value,
    });
    const text = sealAttestation(body);
    if (!text.ok) return failed(text.error.message);
    const written = await this.files.replaceAtomic(
      paths.file(".attestation.json"),
      new TextEncoder().encode(text.value),
    );
    return written.ok
      ? terminal
      : failed(
          `the sidecar could not be written (${written.error.osCode ?? written.error.code}): ${written.error.message}`,
        );
  }

  private body(
    terminal: TaskSnapshot,
    judged: Judged,
    files: Record<"output" | "events" | "stderr" | "metadata", FileDigest>,
  ): AttestationBody {
    const { request, credential, paths, before, cwdPrefix, prompt } = this.input;
    const point = (state: WorktreeState) => ({ head: state.head, tree: state.tree, clean: true as const });
    return {
      schema_version: "phase2.pi_task_attestation.v1",
      locator: { task_id: paths.id, task_dir: paths.displayDir, attestation_path: paths.shown(".attestation.json") },
      sources: { metadata: files.metadata, wrapper: "direct-spawn: no shell, no telemetry wrapper" },
      lifecycle: {
        status: "completed",
        start_time_ms: terminal.startTime,
        end_time_ms: terminal.endTime ?? terminal.startTime,
        exit_code: 0,
        pid: terminal.pid ?? null,
      },
      invocation: {
        session_id: judged.verdict.sessionId,
        argv: [...logicalPiArgv(request)],
        process_argv: [...this.input.processArgv],
        shell: false,
        prompt_transport: "stdin",
        cwd_realpath: before.dir,
        provider: request.provider,
        model: request.model,
        thinking: request.thinking ?? null,
        api: judged.verdict.api,
        auth_class: credential.authClass,
        credential_kind: credential.credentialKind,
        channel: credential.channel,
        direct_api_key: false,
        final_stop_reason: judged.verdict.finalStopReason,
      },
      authority: {
        repo_root_realpath: before.root,
        start: point(before),
        finish: point(judged.after),
        ignored_paths: [`${cwdPrefix}.pi/tasks/`],
        allowed_change: `${cwdPrefix}${request.reportPath}`,
      },
      artifacts: {
        prompt: { path: "stdin", bytes: prompt.length, sha256: sha256Hex(prompt) },
        output: files.output,
        events: files.events,
        stderr: files.stderr,
        report: judged.report,
      },
    };
  }
}

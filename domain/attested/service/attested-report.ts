import type { FileCommitter } from "../../../ports/file-committer.ts";
import type { WorktreeInspector } from "../../../ports/worktree-inspector.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type { FileDigest } from "../model/pi-attestation.ts";
import { isInside } from "../model/report-path.ts";
import { digestFile } from "./evidence-file.ts";

/** What stood at the report path before the child started: its digest, or "absent" when no regular file did. */
export type ReportBefore = FileDigest | "absent";

type Seen =
  | { readonly kind: "file"; readonly digest: FileDigest }
  | { readonly kind: "missing" }
  | { readonly kind: "outside"; readonly real: string }
  | { readonly kind: "not_regular"; readonly why: string }
  | { readonly kind: "unreadable"; readonly why: string };

/**
 * The report an attested run must write, looked at before the child starts and after it ends. It counts
 * only as a regular, singly linked file at its own path (no symlink anywhere on it) whose bytes this run
 * created or changed: a tracked file left as it was is not a report of this run.
 */
export class AttestedReport {
  constructor(
    private readonly files: FileCommitter,
    private readonly worktree: WorktreeInspector,
    /** The worktree directory's realpath. */
    private readonly cwd: string,
    private readonly reportPath: string,
  ) {}

  async before(): Promise<Result<ReportBefore, string>> {
    const seen = await this.look();
    if (seen.kind === "file") return ok(seen.digest);
    if (seen.kind === "unreadable") return err(`the report ${this.reportPath} cannot be read at start: ${seen.why}`);
    return ok("absent");
  }

  /** The report's digest, or why it does not count (the message names the code). */
  async written(before: ReportBefore): Promise<FileDigest | string> {
    const path = this.reportPath;
    const seen = await this.look();
    switch (seen.kind) {
      case "missing":
        return `the report ${path} was not written (attested_report_missing)`;
      case "outside":
        return `the report ${path} resolves outside the working directory, to ${seen.real} (attested_report_outside_worktree)`;
      case "not_regular":
        return `the report ${path} ${seen.why} (attested_report_not_regular_file)`;
      case "unreadable":
        return `the report ${path} cannot be read: ${seen.why} (attested_report_unreadable)`;
      case "file":
        return before !== "absent" && before.sha256 === seen.digest.sha256
          ? `the report ${path} was not created or changed by this run (attested_report_not_written)`
          : seen.digest;
    }
  }

  private async look(): Promise<Seen> {
    const at = `${this.cwd}/${this.reportPath}`;
    const real = await this.worktree.realpath(at);
    if (!real.ok)
      return real.error.code === "path_not_found"
        ? { kind: "missing" }
        : { kind: "unreadable", why: real.error.message };
    if (!isInside(real.value, this.cwd)) return { kind: "outside", real: real.value };
    // The path is normalised and the cwd a realpath, so only a symlink on the way makes them differ.
    if (real.value !== at) return { kind: "not_regular", why: `is a symlink (or lies under one) to ${real.value}` };
    const digest = await digestFile(this.files, at, this.reportPath);
    if (digest.ok) return { kind: "file", digest: digest.value };
    if (digest.error.code === "file_not_found") return { kind: "missing" };
    if (digest.error.code === "untrusted_file")
      return { kind: "not_regular", why: `is not a regular file of its own: ${digest.error.message}` };
    return { kind: "unreadable", why: digest.error.message };
  }
}

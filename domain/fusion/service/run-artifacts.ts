import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { ensureArtifactDir } from "../../shared/service/artifact-dir.ts";
import type { FileCommitter } from "../../../ports/file-committer.ts";
import { fusionError, type FusionError, type FusionErrorStage } from "../model/fusion-error.ts";

const encoder = new TextEncoder();

/** Writes the run's files: every one a private temp-file, fsync, rename commit. */
export class RunArtifacts {
  constructor(
    private readonly files: FileCommitter,
    readonly dir: string,
  ) {}

  path(name: string): string {
    return `${this.dir}/${name}`;
  }

  async create(): Promise<Result<void, FusionError>> {
    const made = await ensureArtifactDir(this.files, this.dir);
    return made.ok ? ok(undefined) : err(this.#failure("preflight", made.error.path, made.error.message));
  }

  async writeText(name: string, text: string, stage: FusionErrorStage): Promise<Result<void, FusionError>> {
    const path = this.path(name);
    const written = await this.files.replaceAtomic(path, encoder.encode(text));
    return written.ok ? ok(undefined) : err(this.#failure(stage, path, written.error.message));
  }

  /** Canonical JSON, so every JSON artifact can be hashed and compared byte for byte. */
  writeJson(name: string, value: unknown, stage: FusionErrorStage): Promise<Result<void, FusionError>> {
    return this.writeText(name, canonicalJsonOf(value), stage);
  }

  #failure(stage: FusionErrorStage, path: string, message: string): FusionError {
    return fusionError("artifact_error", `could not write ${path}: ${message}`, { stage });
  }
}

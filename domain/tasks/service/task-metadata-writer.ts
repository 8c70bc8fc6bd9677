import type { FileCommitter, FileError } from "../../../ports/file-committer.ts";
import { ok, type Result } from "../../shared/model/result.ts";
import type { TaskSnapshot } from "../model/task-snapshot.ts";

/** Writes one task's metadata file atomically, one write at a time, always the newest snapshot. */
export class TaskMetadataWriter {
  private chain: Promise<Result<void, FileError>> = Promise.resolve(ok(undefined));

  constructor(
    private readonly files: FileCommitter,
    readonly path: string,
  ) {}

  write(snapshot: TaskSnapshot): Promise<Result<void, FileError>> {
    const bytes = new TextEncoder().encode(`${JSON.stringify(snapshot, null, 2)}\n`);
    const next = this.chain.then(() => this.files.replaceAtomic(this.path, bytes));
    this.chain = next;
    return next;
  }
}

import type { FileCommitter, WritableFile } from "../../../ports/file-committer.ts";
import type { FileDigest } from "../model/pi-attestation.ts";
import { sha256Stream } from "../model/sha256-stream.ts";
import { ok, err, type Result } from "../../shared/model/result.ts";
import type { FileError } from "../../../ports/file-committer.ts";

/**
 * One raw evidence file of an attested run (the JSON events, stderr): created exclusively on first use,
 * written in order, flushed (fdatasync) on close, with a hard cap. After a problem it writes nothing more and says why.
 */
export class EvidenceFile {
  private file: WritableFile | undefined;
  private position = 0;
  private problem: string | undefined;
  private capped = false;

  constructor(
    private readonly files: FileCommitter,
    readonly path: string,
    private readonly capBytes: number,
  ) {}

  get bytes(): number {
    return this.position;
  }

  /** Why the evidence is incomplete, if it is. */
  get error(): string | undefined {
    return this.problem;
  }

  get overCap(): boolean {
    return this.capped;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.problem !== undefined || chunk.length === 0) return;
    if (this.position + chunk.length > this.capBytes) {
      this.capped = true;
      this.problem = `${this.path} reached its cap of ${this.capBytes} bytes; the run was stopped and its evidence is incomplete`;
      return;
    }
    const file = await this.open();
    if (file === undefined) return;
    const written = await file.write(this.position, chunk);
    if (!written.ok) {
      this.problem = `${this.path} could not be written (${written.error.osCode ?? written.error.code}): ${written.error.message}`;
      return;
    }
    this.position += chunk.length;
  }

  /** Creates the file if nothing was written, then flushes (fdatasync) and closes it. */
  async close(): Promise<void> {
    const file = await this.open();
    if (file === undefined) return;
    this.file = undefined;
    const closed = await file.close();
    if (!closed.ok && this.problem === undefined)
      this.problem = `${this.path} could not be synced (${closed.error.osCode ?? closed.error.code}): ${closed.error.message}`;
  }

  private async open(): Promise<WritableFile | undefined> {
    if (this.file !== undefined) return this.file;
    if (this.problem !== undefined && !this.capped) return undefined;
    const created = await this.files.createExclusive(this.path);
    if (!created.ok) {
      this.problem ??= `${this.path} could not be created (${created.error.osCode ?? created.error.code}): ${created.error.message}`;
      return undefined;
    }
    this.file = created.value;
    return this.file;
  }
}

const DIGEST_RANGE_BYTES = 4 * 1024 * 1024;

/** Size and SHA-256 of a file as it is on disk, read range by range. `shown` is the path the record names. */
export async function digestFile(
  files: FileCommitter,
  path: string,
  shown: string,
): Promise<Result<FileDigest, FileError>> {
  const size = await files.size(path);
  if (!size.ok) return size;
  const hash = sha256Stream();
  for (let offset = 0; offset < size.value; offset += DIGEST_RANGE_BYTES) {
    const piece = await files.readRange(path, offset, Math.min(DIGEST_RANGE_BYTES, size.value - offset));
    if (!piece.ok) return err(piece.error);
    hash.update(piece.value);
  }
  return ok({ path: shown, bytes: size.value, sha256: hash.hex() });
}

import { posix } from "node:path";
import { err, ok } from "../../domain/shared/model/result.ts";
import type { Result } from "../../domain/shared/model/result.ts";
import type { FileCommitter, FileError, WritableFile } from "../../ports/file-committer.ts";

export type FileOp =
  | "ensureDir"
  | "createExclusive"
  | "replaceAtomic"
  | "appendDurable"
  | "readRange"
  | "size"
  | "write"
  | "sync"
  | "close";

/** What a test can plant where a file of the package's own should be. */
export type PlantedShape = "symlink" | "hard_link" | "fifo" | "symlinked_dir";

/** File bytes in a buffer that grows by doubling, so long streams of small writes stay linear. */
class StoredFile {
  #buffer: Uint8Array;
  #length: number;
  /** What survives `crash()`: the contents as of the last fsync. */
  #durable: Uint8Array;

  constructor(initial: Uint8Array = new Uint8Array(0)) {
    this.#buffer = initial.slice();
    this.#length = initial.length;
    this.#durable = initial.slice();
  }

  get length(): number {
    return this.#length;
  }

  view(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }

  writeAt(position: number, bytes: Uint8Array): void {
    const end = position + bytes.length;
    if (end > this.#buffer.length) {
      const grown = new Uint8Array(Math.max(end, this.#buffer.length * 2, 64));
      grown.set(this.view(), 0);
      this.#buffer = grown;
    }
    if (position > this.#length) this.#buffer.fill(0, this.#length, position);
    this.#buffer.set(bytes, position);
    this.#length = Math.max(this.#length, end);
  }

  sync(): void {
    this.#durable = this.view().slice();
  }

  revert(): void {
    this.#buffer = this.#durable.slice();
    this.#length = this.#buffer.length;
  }
}

/**
 * The FileCommitter twin: a tree of directories and files in memory, with the real adapter's error
 * semantics (ENOENT → file_not_found, EEXIST → file_exists, ENOTDIR/EISDIR/… → io_failed). Failures
 * can be injected per operation (`failNext`), a capacity turns into ENOSPC, and `crash()` drops
 * every byte that was never fsynced.
 */
export class InMemoryFileCommitter implements FileCommitter {
  readonly #dirs = new Set<string>(["/"]);
  readonly #files = new Map<string, StoredFile>();
  readonly #planted = new Map<string, PlantedShape>();
  readonly #failures = new Map<FileOp, string[]>();
  readonly #open = new Set<InMemoryWritableFile>();
  readonly #capacity: number;

  constructor(options: { readonly capacityBytes?: number } = {}) {
    this.#capacity = options.capacityBytes ?? Number.POSITIVE_INFINITY;
  }

  /** The next call of `op` fails with io_failed and this OS code (ENOENT/EEXIST map like the real one). */
  failNext(op: FileOp, osCode = "EIO"): this {
    this.#failures.set(op, [...(this.#failures.get(op) ?? []), osCode]);
    return this;
  }

  /** Power loss: every file reverts to its last fsynced contents and open files are lost. */
  crash(): void {
    for (const file of this.#files.values()) file.revert();
    for (const handle of this.#open) handle.lose();
    this.#open.clear();
  }

  /** Puts something the package did not make at `path`: reads, sizes and appends refuse it (untrusted_file). */
  plant(path: string, shape: PlantedShape): void {
    this.#planted.set(normal(path), shape);
  }

  /** Entry names in a directory, sorted; undefined when it is not a directory. */
  listDir(path: string): string[] | undefined {
    const dir = normal(path);
    if (!this.#dirs.has(dir)) return undefined;
    const children = [...this.#dirs, ...this.#files.keys(), ...this.#planted.keys()].filter(
      (p) => p !== dir && posix.dirname(p) === dir,
    );
    return children.map((p) => posix.basename(p)).sort();
  }

  /** The current contents of a file (a copy), or undefined. */
  contents(path: string): Uint8Array | undefined {
    return this.#files.get(normal(path))?.view().slice();
  }

  async ensureDir(path: string): Promise<Result<void, FileError>> {
    const dir = normal(path);
    return this.#guarded("ensureDir", dir, () => {
      if (this.#files.has(dir)) return osError(dir, "EEXIST");
      const ancestors = this.#ancestorProblem(dir, true);
      if (ancestors !== undefined) return ancestors;
      for (let p = dir; !this.#dirs.has(p); p = posix.dirname(p)) this.#dirs.add(p);
      return ok(undefined);
    });
  }

  async createExclusive(path: string): Promise<Result<WritableFile, FileError>> {
    const file = normal(path);
    return this.#guarded("createExclusive", file, () => {
      const problem = this.#ancestorProblem(file, false);
      if (problem !== undefined) return problem;
      if (this.#exists(file)) return osError(file, "EEXIST");
      const stored = new StoredFile();
      this.#files.set(file, stored);
      const handle = new InMemoryWritableFile(file, stored, this);
      this.#open.add(handle);
      return ok(handle);
    });
  }

  async replaceAtomic(path: string, bytes: Uint8Array): Promise<Result<void, FileError>> {
    const file = normal(path);
    return this.#guarded("replaceAtomic", file, () => {
      const problem =
        this.#ancestorProblem(file, false) ?? (this.#dirs.has(file) ? osError(file, "EISDIR") : undefined);
      if (problem !== undefined) return problem;
      // The temp file sits beside the old one until the rename: the whole new size must fit.
      const full = this.#spaceFor(file, bytes.length);
      if (full !== undefined) return full;
      this.#planted.delete(file); // the rename replaces the entry, not what it pointed at
      this.#files.set(file, new StoredFile(bytes));
      return ok(undefined);
    });
  }

  async appendDurable(path: string, bytes: Uint8Array): Promise<Result<void, FileError>> {
    const file = normal(path);
    return this.#guarded("appendDurable", file, () => {
      const problem = this.#untrusted(file) ?? this.#ancestorProblem(file, false);
      if (problem !== undefined) return problem;
      const full = this.#spaceFor(file, bytes.length);
      if (full !== undefined) return full;
      const stored = this.#files.get(file) ?? new StoredFile();
      stored.writeAt(stored.length, bytes);
      stored.sync();
      this.#files.set(file, stored);
      return ok(undefined);
    });
  }

  async readRange(path: string, offset: number, length: number): Promise<Result<Uint8Array, FileError>> {
    const file = normal(path);
    return this.#guarded("readRange", file, () => {
      const found = this.#lookup(file);
      if (!found.ok) return found;
      if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length))
        throw new RangeError(`bad range ${offset}+${length}`);
      const size = found.value.length;
      if (offset < 0 || length < 0 || offset + length > size) {
        return err({
          code: "range_out_of_bounds",
          message: `${file}: bytes ${offset}..${offset + length} are outside 0..${size}`,
          path: file,
        });
      }
      return ok(found.value.view().slice(offset, offset + length));
    });
  }

  async size(path: string): Promise<Result<number, FileError>> {
    const file = normal(path);
    return this.#guarded("size", file, () => {
      const found = this.#lookup(file);
      return found.ok ? ok(found.value.length) : found;
    });
  }

  /** Used by open files: an injected failure for `op`, if one is queued. */
  takeFailure(op: FileOp, path: string): Result<void, FileError> {
    const osCode = this.#failures.get(op)?.shift();
    return osCode === undefined ? ok(undefined) : osError(path, osCode);
  }

  /** ENOSPC when growing `path` by `growth` bytes would pass the capacity. */
  spaceFor(path: string, growth: number): Result<void, FileError> {
    const full = this.#spaceFor(path, growth);
    return full ?? ok(undefined);
  }

  forget(handle: InMemoryWritableFile): void {
    this.#open.delete(handle);
  }

  #spaceFor(path: string, growth: number): Result<never, FileError> | undefined {
    let used = 0;
    for (const stored of this.#files.values()) used += stored.length;
    return used + growth > this.#capacity ? osError(path, "ENOSPC") : undefined;
  }

  #guarded<T>(op: FileOp, path: string, action: () => Result<T, FileError>): Result<T, FileError> {
    const injected = this.takeFailure(op, path);
    return injected.ok ? action() : injected;
  }

  #exists(path: string): boolean {
    return this.#dirs.has(path) || this.#files.has(path) || this.#planted.has(path);
  }

  /** Like the real adapter: a planted entry, a file in a planted directory, or a directory. */
  #untrusted(file: string): Result<never, FileError> | undefined {
    const planted = [...this.#planted].find(
      ([at, shape]) => at === file || (shape === "symlinked_dir" && file.startsWith(`${at}/`)),
    );
    if (planted === undefined && !this.#dirs.has(file)) return undefined;
    const what = planted === undefined ? "is a directory" : `is a planted ${planted[1]} (${planted[0]})`;
    return err({ code: "untrusted_file", message: `${file} ${what}; it was neither read nor changed`, path: file });
  }

  #lookup(file: string): Result<StoredFile, FileError> {
    const problem = this.#untrusted(file) ?? this.#ancestorProblem(file, false);
    if (problem !== undefined) return problem;
    const stored = this.#files.get(file);
    return stored === undefined ? osError(file, "ENOENT") : ok(stored);
  }

  /** ENOTDIR when an ancestor is a file; ENOENT when the parent is missing (unless `creating` parents). */
  #ancestorProblem(path: string, creating: boolean): Result<never, FileError> | undefined {
    const parts = posix
      .dirname(path)
      .split("/")
      .filter((part) => part !== "");
    let at = "/";
    for (const part of parts) {
      at = posix.join(at, part);
      if (this.#files.has(at)) return osError(path, "ENOTDIR");
      if (!this.#dirs.has(at)) return creating ? undefined : osError(path, "ENOENT");
    }
    return undefined;
  }
}

class InMemoryWritableFile implements WritableFile {
  #state: "open" | "closed" | "lost" = "open";

  constructor(
    readonly path: string,
    private readonly stored: StoredFile,
    private readonly owner: InMemoryFileCommitter,
  ) {}

  async write(position: number, bytes: Uint8Array): Promise<Result<void, FileError>> {
    if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`bad write position ${position}`);
    return this.#whileOpen("write", () => {
      const full = this.owner.spaceFor(this.path, Math.max(0, position + bytes.length - this.stored.length));
      if (!full.ok) return full;
      this.stored.writeAt(position, bytes);
      return ok(undefined);
    });
  }

  async sync(): Promise<Result<void, FileError>> {
    return this.#whileOpen("sync", () => this.#flush());
  }

  async close(): Promise<Result<void, FileError>> {
    const result = this.#whileOpen("close", () => this.#flush());
    if (this.#state === "open") this.#state = "closed";
    this.owner.forget(this);
    return result;
  }

  lose(): void {
    this.#state = "lost";
  }

  #flush(): Result<void, FileError> {
    this.stored.sync();
    return ok(undefined);
  }

  #whileOpen(op: FileOp, action: () => Result<void, FileError>): Result<void, FileError> {
    if (this.#state !== "open")
      return err({ code: "io_failed", message: `${this.path} is already closed`, path: this.path, osCode: "EBADF" });
    const injected = this.owner.takeFailure(op, this.path);
    return injected.ok ? action() : injected;
  }
}

function normal(path: string): string {
  return posix.resolve("/", path);
}

function osError(path: string, osCode: string): Result<never, FileError> {
  if (osCode === "ENOENT")
    return err({ code: "file_not_found", message: `${path} (or a parent directory) does not exist`, path, osCode });
  if (osCode === "EEXIST") return err({ code: "file_exists", message: `${path} already exists`, path, osCode });
  return err({ code: "io_failed", message: `${path}: ${osCode}`, path, osCode });
}

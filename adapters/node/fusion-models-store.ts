import { chmod, readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  ABSENT_REVISION,
  DEFAULT_FUSION_MODELS_CONFIG,
  FUSION_MODELS_FILE_NAME,
  parseFusionModelsJson,
  revisionOf,
  serializeFusionModelsConfig,
  type ConfigInvalid,
  type FusionModelsConfig,
  type LoadedFusionModels,
} from "../../domain/fusion/model/fusion-models-config.ts";
import { err, ok, type Result, type TypedError } from "../../domain/shared/model/result.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import { errnoCode } from "./errno.ts";
import { acquireFileLock, type FileLockOptions } from "./exclusive-file-lock.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";

export type FusionModelsStoreError =
  | ConfigInvalid
  | (TypedError<"config_conflict" | "config_io_failed"> & { readonly path: string });

export interface FusionModelsStoreOptions {
  /** Pi's agent directory (`getAgentDir()`), where `fusion-models.json` lives. */
  readonly agentDir: string;
  readonly files?: FileCommitter;
  readonly lock?: Partial<FileLockOptions>;
}

/** Lock timing of reference §2.9: poll every 25 ms, give up after 10 s. */
const DEFAULT_LOCK: FileLockOptions = { pollMs: 25, timeoutMs: 10_000, pid: process.pid };

/**
 * The global `fusion-models.json`. A load records the sha256 of the bytes it read; a save takes the
 * inter-process lock `.fusion-models.json.lock`, re-reads the file and refuses (config_conflict) unless
 * the bytes still have that revision, then replaces the file atomically. Two selectors therefore never
 * overwrite each other silently.
 */
export class FusionModelsStore {
  readonly path: string;
  readonly lockPath: string;
  readonly #agentDir: string;
  readonly #files: FileCommitter;
  readonly #lock: FileLockOptions;

  constructor(options: FusionModelsStoreOptions) {
    this.#agentDir = options.agentDir;
    this.path = join(options.agentDir, FUSION_MODELS_FILE_NAME);
    this.lockPath = join(options.agentDir, `.${FUSION_MODELS_FILE_NAME}.lock`);
    this.#files = options.files ?? new NodeFileCommitter();
    this.#lock = { ...DEFAULT_LOCK, ...options.lock };
  }

  /** A missing file is the default (all `$current`) with revision `absent`. */
  async load(): Promise<Result<LoadedFusionModels, FusionModelsStoreError>> {
    const bytes = await this.#read();
    if (!bytes.ok) return bytes;
    if (bytes.value === undefined)
      return ok({ config: DEFAULT_FUSION_MODELS_CONFIG, revision: ABSENT_REVISION, exists: false });
    const config = parseFusionModelsJson(Buffer.from(bytes.value).toString("utf8"), this.path);
    if (!config.ok) return config;
    return ok({ config: config.value, revision: revisionOf(bytes.value), exists: true });
  }

  /** Saves `config` if the file still has `expectedRevision`; returns what is now on disk. */
  async save(
    config: FusionModelsConfig,
    expectedRevision: string,
  ): Promise<Result<LoadedFusionModels, FusionModelsStoreError>> {
    const dir = await this.#prepareDir();
    if (!dir.ok) return dir;
    const lock = await acquireFileLock(this.lockPath, this.#files, this.#lock);
    if (!lock.ok)
      return err({
        code: "config_conflict",
        path: this.path,
        message: `${lock.error.message} Nothing was saved to ${this.path}.`,
      });
    try {
      const current = await this.#read();
      if (!current.ok) return current;
      const revision = current.value === undefined ? ABSENT_REVISION : revisionOf(current.value);
      if (revision !== expectedRevision) {
        return err({
          code: "config_conflict",
          path: this.path,
          message: `${this.path} changed since it was loaded (another /fusion-models save won); nothing was saved (config_conflict). Reopen /fusion-models to see the current choice.`,
        });
      }
      const bytes = new TextEncoder().encode(serializeFusionModelsConfig(config));
      const written = await this.#files.replaceAtomic(this.path, bytes);
      if (!written.ok)
        return err({
          code: "config_io_failed",
          path: this.path,
          message: `cannot save ${this.path}: ${written.error.message}`,
        });
      return ok({ config, revision: revisionOf(bytes), exists: true });
    } finally {
      await lock.value.release();
    }
  }

  async #read(): Promise<Result<Uint8Array | undefined, FusionModelsStoreError>> {
    try {
      return ok(new Uint8Array(await readFile(this.path)));
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return ok(undefined);
      return err({
        code: "config_io_failed",
        path: this.path,
        message: `cannot read ${this.path}: ${describe(error)}`,
      });
    }
  }

  async #prepareDir(): Promise<Result<void, FusionModelsStoreError>> {
    const made = await this.#files.ensureDir(this.#agentDir);
    if (!made.ok)
      return err({
        code: "config_io_failed",
        path: this.path,
        message: `cannot create ${this.#agentDir}: ${made.error.message}`,
      });
    try {
      await chmod(this.#agentDir, 0o700); // the agent dir also holds credentials (auth.json)
      return ok(undefined);
    } catch (error) {
      return err({
        code: "config_io_failed",
        path: this.path,
        message: `cannot set mode 0700 on ${this.#agentDir}: ${describe(error)}`,
      });
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

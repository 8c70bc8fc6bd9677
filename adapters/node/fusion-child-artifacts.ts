import { join } from "node:path";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import type { ChildError } from "../../ports/fusion-child-runner.ts";

export interface ChildArtifacts {
  /** The frames' JSON exactly as the child wrote them. */
  readonly frames: readonly string[];
  /** stderr without the frame lines, up to the keep limit. */
  readonly stderr: Uint8Array;
  /** Non-frame stderr bytes that were counted but not kept. */
  readonly stderrDropped: number;
  /** Written as `.response.partial.txt` when the attempt failed and stdout was captured. */
  readonly partialStdout: Uint8Array | undefined;
}

export interface ChildArtifactPaths {
  readonly events: string;
  readonly stderr: string;
  readonly partial: string;
}

export function childArtifactPaths(runDir: string, prefix: string): ChildArtifactPaths {
  return {
    events: join(runDir, `${prefix}.events.jsonl`),
    stderr: join(runDir, `${prefix}.stderr.txt`),
    partial: join(runDir, `${prefix}.response.partial.txt`),
  };
}

/**
 * Makes an attempt's own artifacts durable (temp, fsync, rename, directory fsync). The authoritative
 * `<prefix>.response.md` is the orchestrator's: a failed attempt's stdout only ever lands in the
 * explicitly partial file.
 */
export async function writeChildArtifacts(
  files: FileCommitter,
  paths: ChildArtifactPaths,
  artifacts: ChildArtifacts,
): Promise<Result<void, ChildError>> {
  const encoder = new TextEncoder();
  const events = encoder.encode(artifacts.frames.map((frame) => `${frame}\n`).join(""));
  const receipt =
    artifacts.stderrDropped > 0
      ? encoder.encode(
          `\n[pi-background-tasks: stderr truncated; the first ${artifacts.stderr.length} bytes were kept, ${artifacts.stderrDropped} more were discarded]\n`,
        )
      : new Uint8Array(0);
  const writes: Array<[string, Uint8Array]> = [
    [paths.events, events],
    [paths.stderr, concat(artifacts.stderr, receipt)],
  ];
  if (artifacts.partialStdout !== undefined && artifacts.partialStdout.length > 0)
    writes.push([paths.partial, artifacts.partialStdout]);
  for (const [path, bytes] of writes) {
    const written = await files.replaceAtomic(path, bytes);
    if (!written.ok)
      return err({
        code: "artifact_error",
        message: `cannot write the Fusion child artifact ${path}: ${written.error.message}`,
      });
  }
  return ok(undefined);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

import type { WrittenOutputState } from "../../ports/process-launcher.ts";

/** See task-output-file.mjs. `write` is `fs.writeSync` (a test passes one that fails). */
export function openOutputFile(
  spec: { path: string; capBytes: number; capAction: "kill" | "keep_head_and_tail" },
  write?: (fd: number, bytes: Uint8Array, offset: number, length: number, position: number) => number,
): { append(chunk: Uint8Array): boolean; state(): WrittenOutputState; close(): void };

import type { ChildRoute } from "../../ports/fusion-child-runner.ts";
import { parseFrameJson, type ParsedFrame } from "./fusion-child-frame.ts";
import { verifyStdout } from "./fusion-child-stdout.ts";

/**
 * Notices the moment a child's answer is complete: its last frame says `stop` on the pinned route and
 * stdout matches that frame byte for byte. In print mode a `stop` message is final, and Pi prints the
 * answer only after it, so a verified match cannot be premature. Pi then still spends ~0.3–0.5 s
 * disposing its runtime before it exits; settling here keeps that teardown off the critical path.
 */
export class CompletionWatch {
  #framesSeen = 0;
  #candidate: { readonly frame: ParsedFrame; readonly stdoutBytes: number } | undefined;

  constructor(private readonly route: ChildRoute) {}

  /** `stdout` is only read when its length is exactly what the last stop frame announces. */
  isComplete(frames: readonly string[], stdoutBytes: number, stdout: () => Uint8Array): boolean {
    if (frames.length !== this.#framesSeen) {
      this.#framesSeen = frames.length;
      this.#candidate = this.#candidateOf(frames.at(-1));
    }
    const candidate = this.#candidate;
    if (candidate === undefined || candidate.stdoutBytes !== stdoutBytes) return false;
    return verifyStdout(stdout(), candidate.frame).ok;
  }

  #candidateOf(raw: string | undefined): { frame: ParsedFrame; stdoutBytes: number } | undefined {
    if (raw === undefined) return undefined;
    const parsed = parseFrameJson(raw);
    if (!parsed.ok) return undefined;
    const { frame, blocks } = parsed.value;
    if (frame.stopReason !== "stop" || frame.provider !== this.route.provider || frame.model !== this.route.model)
      return undefined;
    return { frame: parsed.value, stdoutBytes: blocks.reduce((sum, b) => sum + b.utf8Bytes + 1, 0) };
  }
}

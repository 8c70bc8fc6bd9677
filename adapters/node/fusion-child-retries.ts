import type { ChildMessageFrame, ChildRetry } from "../../ports/fusion-child-runner.ts";

/**
 * The provider calls the child's Pi retried: every message that ended with stopReason "error" and was
 * followed by another message (Pi continues after an error only to retry it). The last message is never a
 * retry, whatever it says: a final error is the attempt's failure.
 */
export function childRetries(frames: readonly ChildMessageFrame[]): ChildRetry[] {
  const retried = frames.slice(0, -1).filter((frame) => frame.stopReason === "error");
  return retried.map((frame, index) => ({
    attempt: index + 1,
    error: frame.errorMessage ?? "no error message",
    usage: frame.usage,
  }));
}

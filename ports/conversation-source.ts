import type { SourceMessage } from "../domain/projection/model/source-message.ts";
import type { Result, TypedError } from "../domain/shared/model/result.ts";

/** What the host shows the model right now: the session branch, its system prompt and cwd. */
export interface ConversationSnapshot {
  readonly cwd: string;
  readonly systemPrompt: string;
  /** The current branch, root to leaf, as the model sees it (compaction and custom messages resolved). */
  readonly messages: readonly SourceMessage[];
}

export type ConversationCaptureError = TypedError<"context_capture_failed">;

/** Reads the host conversation as plain data. One instance per host call context. */
export interface ConversationSource {
  capture(): Result<ConversationSnapshot, ConversationCaptureError>;
}

/** Reference §3.4 / §5 numbers for `bg_delegate`. */
export const DELEGATE_DEFAULT_LIMITS = {
  maxTurns: 24,
  maxToolCalls: 120,
  timeoutSeconds: 1200,
} as const;

/** Accepted ranges for the caller-set limits (inclusive). */
export const DELEGATE_LIMIT_BOUNDS = {
  maxTurns: { minimum: 1, maximum: 500 },
  maxToolCalls: { minimum: 1, maximum: 5000 },
  timeoutSeconds: { minimum: 1, maximum: 86_400 },
} as const;

/** What a route's context window must leave free besides the input. */
export const DELEGATE_RESERVES = {
  outputTokens: 16_384,
  framingTokens: 8_192,
  safetyTokens: 4_096,
  minUsableInputTokens: 8_192,
} as const;

/** The delegate scope's estimator: one token per UTF-8 byte, a bound no tokenizer can beat. */
export const DELEGATE_BYTES_PER_TOKEN = 1;

/** A tool result larger than this is spilled to `spill/` and replaced by a receipt. */
export const PER_RESULT_CAP_BYTES = 64 * 1024;
/** All tool output of one child, counted before spilling. */
export const AGGREGATE_TOOL_OUTPUT_CAP_BYTES = 64 * 1024 * 1024;
/** `delegate_read_artifact` returns at most this many bytes per call (its base64 form stays under the spill cap). */
export const READ_ARTIFACT_MAX_LENGTH = 32 * 1024;
/** `bg_result` returns answers up to this size inline. */
export const INLINE_ANSWER_CAP_BYTES = 48 * 1024;
/** The answer is stored in blocks of this many bytes, each with its own hash. */
export const ANSWER_BLOCK_BYTES = 16 * 1024;
/** SIGTERM → SIGKILL grace when the parent stops a child. */
export const CHILD_KILL_GRACE_MS = 3_000;

export interface DelegateLimits {
  readonly maxTurns: number;
  readonly maxToolCalls: number;
  readonly timeoutSeconds: number;
}

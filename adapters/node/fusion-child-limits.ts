/** Reference §3.5 / §5 numbers; every one can be lowered for tests. */
export interface ChildLimits {
  readonly stdoutCapBytes: number;
  readonly stderrKeepBytes: number;
  readonly maxFrameBytes: number;
  readonly absoluteTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly killGraceMs: number;
}

export const DEFAULT_CHILD_LIMITS: ChildLimits = {
  stdoutCapBytes: 32 * 1024 * 1024,
  stderrKeepBytes: 4 * 1024 * 1024,
  maxFrameBytes: 1024 * 1024,
  absoluteTimeoutMs: 30 * 60 * 1000,
  idleTimeoutMs: 900 * 1000,
  killGraceMs: 3_000,
};

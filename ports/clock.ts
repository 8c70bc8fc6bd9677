export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Wall-clock milliseconds since the epoch. */
  now(): number;
  /** Monotonic milliseconds, for durations. */
  monotonic(): number;
  /** Runs `callback` once after `ms`. The timer never keeps the host process alive by itself. */
  after(ms: number, callback: () => void): TimerHandle;
  /** Runs `callback` every `ms` until cancelled; never keeps the host process alive by itself. */
  every(ms: number, callback: () => void): TimerHandle;
}

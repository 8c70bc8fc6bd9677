import type { Clock, TimerHandle } from "../../ports/clock.ts";

/** Node runs a longer setTimeout delay after 1 ms (with a warning); longer waits are chained. */
const MAX_NODE_DELAY = 2_147_483_647;

/** Wall time from Date.now, monotonic time from performance.now; every timer is unref'd. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }

  monotonic(): number {
    return performance.now();
  }

  after(ms: number, callback: () => void): TimerHandle {
    const delay = timerDelay(ms);
    if (delay > MAX_NODE_DELAY) return chained(delay, callback);
    const timer = setTimeout(callback, delay);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  }

  every(ms: number, callback: () => void): TimerHandle {
    const interval = timerDelay(ms);
    if (interval > MAX_NODE_DELAY) return chainedEvery(this, interval, callback);
    const timer = setInterval(callback, interval);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  }
}

function chained(delay: number, callback: () => void): TimerHandle {
  let current: NodeJS.Timeout;
  const wait = (remaining: number) => {
    const step = Math.min(remaining, MAX_NODE_DELAY);
    current = setTimeout(() => (remaining > step ? wait(remaining - step) : callback()), step);
    current.unref();
  };
  wait(delay);
  return { cancel: () => clearTimeout(current) };
}

function chainedEvery(clock: Clock, interval: number, callback: () => void): TimerHandle {
  let cancelled = false;
  let current: TimerHandle;
  const tick = () => {
    if (cancelled) return;
    current = clock.after(interval, tick);
    callback();
  };
  current = clock.after(interval, tick);
  return {
    cancel: () => {
      cancelled = true;
      current.cancel();
    },
  };
}

/** A finite, non-negative delay; Node itself runs anything below 1 ms after 1 ms. */
function timerDelay(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0)
    throw new RangeError(`timer delay must be a finite, non-negative number of ms, got ${ms}`);
  return Math.max(1, ms);
}

import type { Clock, TimerHandle } from "../../ports/clock.ts";

interface PendingTimer {
  due: number;
  order: number;
  readonly interval: number | undefined;
  readonly callback: () => void;
}

/**
 * A clock that moves only when told. `advance(ms)` fires every timer that falls due on the way,
 * in due order (ties in scheduling order), with `now()`/`monotonic()` set to each timer's due time
 * while its callback runs. Delays below 1 ms count as 1 ms, as with Node's timers.
 */
export class FakeClock implements Clock {
  #wall: number;
  #monotonic: number;
  #order = 0;
  readonly #timers = new Set<PendingTimer>();

  constructor(start: { readonly wallMs?: number; readonly monotonicMs?: number } = {}) {
    this.#wall = start.wallMs ?? Date.UTC(2025, 0, 1);
    this.#monotonic = start.monotonicMs ?? 0;
  }

  now(): number {
    return this.#wall;
  }

  monotonic(): number {
    return this.#monotonic;
  }

  after(ms: number, callback: () => void): TimerHandle {
    return this.#schedule(timerDelay(ms), undefined, callback);
  }

  every(ms: number, callback: () => void): TimerHandle {
    const interval = timerDelay(ms);
    return this.#schedule(interval, interval, callback);
  }

  /** Moves both clocks forward by `ms`, firing the timers that fall due. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance a clock by ${ms} ms`);
    const target = this.#monotonic + ms;
    for (let next = this.#nextDue(target); next !== undefined; next = this.#nextDue(target)) {
      this.#moveTo(next.due);
      if (next.interval === undefined) this.#timers.delete(next);
      else {
        next.due += next.interval;
        next.order = this.#order++;
      }
      next.callback();
    }
    this.#moveTo(target);
  }

  /** Sets the wall clock (a jump, as after an NTP correction); monotonic time is unaffected. */
  setWallTime(ms: number): void {
    this.#wall = ms;
  }

  /** How many timers are scheduled and not yet fired or cancelled. */
  pendingTimers(): number {
    return this.#timers.size;
  }

  #schedule(delay: number, interval: number | undefined, callback: () => void): TimerHandle {
    const timer: PendingTimer = { due: this.#monotonic + delay, order: this.#order++, interval, callback };
    this.#timers.add(timer);
    return { cancel: () => void this.#timers.delete(timer) };
  }

  #nextDue(limit: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const timer of this.#timers) {
      if (timer.due > limit) continue;
      if (best === undefined || timer.due < best.due || (timer.due === best.due && timer.order < best.order))
        best = timer;
    }
    return best;
  }

  #moveTo(monotonic: number): void {
    this.#wall += monotonic - this.#monotonic;
    this.#monotonic = monotonic;
  }
}

/** Same rule as the system clock: a finite, non-negative delay, at least 1 ms. */
function timerDelay(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0)
    throw new RangeError(`timer delay must be a finite, non-negative number of ms, got ${ms}`);
  return Math.max(1, ms);
}

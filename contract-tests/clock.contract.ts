import { describe, expect, it } from "vitest";
import type { Clock } from "../ports/clock.ts";

export const COVERS_PORT = "ports/clock.ts";

export interface ClockSubject {
  readonly clock: Clock;
  /** Lets at least `ms` pass on `clock` and runs the timers that fell due (real: sleeps; fake: advances). */
  advance(ms: number): Promise<void>;
}

export function describeClockContract(name: string, makeSubject: () => ClockSubject): void {
  describe(`Clock contract: ${name}`, () => {
    it("moves wall and monotonic time forward by at least the time that passed", async () => {
      const { clock, advance } = makeSubject();
      const [wall, mono] = [clock.now(), clock.monotonic()];
      expect(Number.isFinite(wall) && Number.isFinite(mono)).toBe(true);
      await advance(40);
      expect(clock.now() - wall).toBeGreaterThanOrEqual(40);
      expect(clock.monotonic() - mono).toBeGreaterThanOrEqual(40);
    });

    it("gives wall time as epoch milliseconds", () => {
      const { clock } = makeSubject();
      const wall = clock.now();
      expect(Number.isInteger(wall)).toBe(true);
      expect(new Date(wall).getUTCFullYear()).toBeGreaterThanOrEqual(2020);
    });

    it("fires a one-shot timer once, only after its delay", async () => {
      const { clock, advance } = makeSubject();
      let fired = 0;
      clock.after(150, () => fired++);
      await advance(20);
      expect(fired).toBe(0);
      await advance(150);
      expect(fired).toBe(1);
      await advance(200);
      expect(fired).toBe(1);
    });

    it("never fires a timer inside the call that schedules it", async () => {
      const { clock, advance } = makeSubject();
      let fired = false;
      clock.after(0, () => (fired = true));
      expect(fired).toBe(false);
      await advance(1);
      expect(fired).toBe(true);
    });

    it("does not fire a cancelled timer", async () => {
      const { clock, advance } = makeSubject();
      let fired = false;
      const handle = clock.after(30, () => (fired = true));
      handle.cancel();
      handle.cancel();
      await advance(60);
      expect(fired).toBe(false);
    });

    it("fires timers in due order, whatever the scheduling order", async () => {
      const { clock, advance } = makeSubject();
      const order: number[] = [];
      for (const ms of [60, 20, 40, 21]) clock.after(ms, () => order.push(ms));
      await advance(80);
      expect(order).toEqual([20, 21, 40, 60]);
    });

    it("fires a timer scheduled by another timer", async () => {
      const { clock, advance } = makeSubject();
      const order: string[] = [];
      clock.after(20, () => {
        order.push("outer");
        clock.after(10, () => order.push("inner"));
      });
      await advance(20);
      expect(order[0]).toBe("outer");
      await advance(10);
      expect(order).toEqual(["outer", "inner"]);
    });

    it("repeats an interval until it is cancelled", async () => {
      const { clock, advance } = makeSubject();
      let ticks = 0;
      const handle = clock.every(30, () => ticks++);
      for (let step = 1; step <= 3; step++) {
        await advance(35);
        expect(ticks).toBeGreaterThanOrEqual(step);
      }
      handle.cancel();
      const seen = ticks;
      await advance(100);
      expect(ticks).toBe(seen);
    });

    it("rejects a negative or non-finite delay as a bug", () => {
      const { clock } = makeSubject();
      for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => clock.after(bad, () => undefined)).toThrow(RangeError);
        expect(() => clock.every(bad, () => undefined)).toThrow(RangeError);
      }
    });
  });
}

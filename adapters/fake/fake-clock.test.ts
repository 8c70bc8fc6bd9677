import { describe, expect, it } from "vitest";
import { describeClockContract } from "../../contract-tests/clock.contract.ts";
import { FakeClock } from "./fake-clock.ts";

describeClockContract("FakeClock", () => {
  const clock = new FakeClock();
  return { clock, advance: async (ms) => clock.advance(ms) };
});

describe("FakeClock specifics", () => {
  it("moves only when advanced, by exactly the amount", () => {
    const clock = new FakeClock({ wallMs: 1_000_000, monotonicMs: 5 });
    expect([clock.now(), clock.monotonic()]).toEqual([1_000_000, 5]);
    clock.advance(250);
    expect([clock.now(), clock.monotonic()]).toEqual([1_000_250, 255]);
  });

  it("shows each timer its own due time while it runs", () => {
    const clock = new FakeClock({ monotonicMs: 0 });
    const seen: number[] = [];
    clock.after(30, () => seen.push(clock.monotonic()));
    clock.every(20, () => seen.push(clock.monotonic()));
    clock.advance(70);
    expect(seen).toEqual([20, 30, 40, 60]);
    expect(clock.monotonic()).toBe(70);
  });

  it("fires an interval exactly once per period and forgets cancelled timers", () => {
    const clock = new FakeClock();
    let ticks = 0;
    const handle = clock.every(10, () => ticks++);
    clock.after(5, () => undefined).cancel();
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(100);
    expect(ticks).toBe(10);
    handle.cancel();
    expect(clock.pendingTimers()).toBe(0);
  });

  it("lets the wall clock jump without touching monotonic time", () => {
    const clock = new FakeClock({ wallMs: 10_000, monotonicMs: 0 });
    clock.setWallTime(2_000);
    expect([clock.now(), clock.monotonic()]).toEqual([2_000, 0]);
  });

  it("refuses to go backwards", () => {
    expect(() => new FakeClock().advance(-1)).toThrow(RangeError);
  });
});

import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore.ts";

describe("Semaphore", () => {
  it("lets at most `limit` holders in at once, and the rest in order as slots free up", async () => {
    const gate = new Semaphore(2);
    const inside: number[] = [];
    let peak = 0;
    const order: number[] = [];
    const work = async (n: number) => {
      await gate.acquire();
      inside.push(n);
      peak = Math.max(peak, inside.length);
      order.push(n);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inside.splice(inside.indexOf(n), 1);
      gate.release();
    };
    await Promise.all([1, 2, 3, 4, 5].map(work));
    expect(peak).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(inside).toEqual([]);
  });
});

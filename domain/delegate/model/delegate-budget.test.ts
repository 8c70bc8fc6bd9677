import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planDelegateBudget, routeCapacityTokens } from "./delegate-budget.ts";

const route = (contextWindow: number) => ({ provider: "p", model: "m", contextWindow, source: "explicit" as const });

describe("delegate budget", () => {
  it("reserves 16,384 output, 8,192 framing and 4,096 safety tokens", () => {
    expect(routeCapacityTokens(200_000)).toBe(200_000 - 16_384 - 8_192 - 4_096);
  });

  it("accepts a prompt that fills the capacity exactly and refuses one byte more", () => {
    const capacity = routeCapacityTokens(40_000);
    const exact = planDelegateBudget({
      route: route(40_000),
      systemPromptBytes: 1_000,
      childPromptBytes: capacity - 1_000,
    });
    expect(exact.ok && exact.value).toMatchObject({
      headroom_tokens: 0,
      measured: { total_bytes: capacity, estimated_tokens: capacity },
    });
    const over = planDelegateBudget({
      route: route(40_000),
      systemPromptBytes: 1_000,
      childPromptBytes: capacity - 999,
    });
    expect(over.ok ? over.value : over.error).toMatchObject({ code: "seed_budget_exceeded", childCreated: false });
    expect(over.ok ? "" : over.error.remedy).toContain("at least 1 bytes");
  });

  it("needs at least 8,192 usable input tokens", () => {
    expect(planDelegateBudget({ route: route(36_864), systemPromptBytes: 0, childPromptBytes: 1 }).ok).toBe(true);
    const small = planDelegateBudget({ route: route(36_863), systemPromptBytes: 0, childPromptBytes: 1 });
    expect(small.ok ? small.value : small.error.message).toContain("at least 8192");
  });

  it("admits exactly when one byte per token fits the capacity", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 30_000, max: 400_000 }),
        fc.nat(300_000),
        fc.nat(300_000),
        (window, system, prompt) => {
          const capacity = routeCapacityTokens(window);
          const plan = planDelegateBudget({
            route: route(window),
            systemPromptBytes: system,
            childPromptBytes: prompt,
          });
          expect(plan.ok).toBe(capacity >= 8_192 && system + prompt <= capacity);
        },
      ),
    );
  });
});

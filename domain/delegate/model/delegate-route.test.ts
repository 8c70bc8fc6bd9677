import { describe, expect, it } from "vitest";
import { resolveRoute } from "./delegate-route.ts";
import { MODELS } from "./delegate-fixtures.test-support.ts";

describe("route pinning", () => {
  it("pins the parent's current route by default", () => {
    expect(resolveRoute(undefined, { provider: "p", model: "big" }, MODELS)).toEqual({
      ok: true,
      value: { provider: "p", model: "big", contextWindow: 200_000, source: "parent_current" },
    });
  });

  it("an explicit route wins over the current one", () => {
    const pinned = resolveRoute({ provider: "p", model: "small" }, { provider: "p", model: "big" }, MODELS);
    expect(pinned.ok && pinned.value).toMatchObject({ model: "small", source: "explicit" });
  });

  it("never substitutes: an unknown route is refused even when the same model id exists elsewhere", () => {
    const refused = resolveRoute({ provider: "q", model: "big" }, { provider: "p", model: "big" }, MODELS);
    expect(refused.ok ? refused.value : refused.error).toMatchObject({ code: "route_unresolved", childCreated: false });
    expect(refused.ok ? "" : refused.error.message).toContain("p/big");
  });

  it("refuses when there is neither a route nor a current model", () => {
    const refused = resolveRoute(undefined, undefined, MODELS);
    expect(refused.ok ? refused.value : refused.error.code).toBe("route_unresolved");
  });

  it.each([undefined, 0, -5, Number.NaN, Number.POSITIVE_INFINITY])(
    "refuses a context window of %s as route_capacity_unknown",
    (window) => {
      const refused = resolveRoute({ provider: "x", model: "y" }, undefined, [
        { provider: "x", model: "y", contextWindow: window },
      ]);
      expect(refused.ok ? refused.value : refused.error.code).toBe("route_capacity_unknown");
    },
  );
});

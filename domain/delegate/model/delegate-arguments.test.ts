import { describe, expect, it } from "vitest";
import { parseDelegateArguments } from "./delegate-arguments.ts";

describe("bg_delegate arguments", () => {
  it("fills every default and keeps the prompt verbatim", () => {
    const parsed = parseDelegateArguments({ name: "  audit  ", prompt: "  Check X.\n" });
    expect(parsed).toEqual({
      ok: true,
      value: {
        name: "audit",
        prompt: "  Check X.\n",
        route: undefined,
        capability: "inspect",
        limits: { maxTurns: 24, maxToolCalls: 120, timeoutSeconds: 1200 },
        autoDeliver: "never",
        notifyOnCompletion: true,
        triggerOnCompletion: true,
      },
    });
  });

  it("takes an explicit route, limits and delivery flags", () => {
    const parsed = parseDelegateArguments({
      name: "n",
      prompt: "p",
      route: { provider: " anthropic ", model: "claude" },
      capability: "inspect",
      maxTurns: 3,
      maxToolCalls: 7,
      timeoutSeconds: 60,
      autoDeliver: "when_small",
      notifyOnCompletion: false,
      triggerOnCompletion: false,
    });
    expect(parsed.ok && parsed.value).toMatchObject({
      route: { provider: "anthropic", model: "claude" },
      limits: { maxTurns: 3, maxToolCalls: 7, timeoutSeconds: 60 },
      autoDeliver: "when_small",
      notifyOnCompletion: false,
      triggerOnCompletion: false,
    });
  });

  it.each([
    ["an unknown key", { name: "n", prompt: "p", command: "rm -rf /" }, "unknown key 'command'"],
    ["a capability other than inspect", { name: "n", prompt: "p", capability: "write" }, "capability"],
    [
      "an open route",
      { name: "n", prompt: "p", route: { provider: "a", model: "b", baseUrl: "x" } },
      "unknown key 'baseUrl'",
    ],
    ["a blank prompt", { name: "n", prompt: "   " }, "'prompt' must not be empty or whitespace"],
    ["a missing name", { prompt: "p" }, "missing required 'name'"],
    ["zero turns", { name: "n", prompt: "p", maxTurns: 0 }, "maxTurns"],
    ["a fractional timeout", { name: "n", prompt: "p", timeoutSeconds: 1.5 }, "timeoutSeconds"],
    ["a string boolean", { name: "n", prompt: "p", notifyOnCompletion: "true" }, "notifyOnCompletion"],
    ["an unknown autoDeliver", { name: "n", prompt: "p", autoDeliver: "sometimes" }, "autoDeliver"],
  ])("refuses %s with invalid_arguments and childCreated false", (_what, raw, problem) => {
    const parsed = parseDelegateArguments(raw);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error).toMatchObject({ code: "invalid_arguments", childCreated: false });
    expect(parsed.error.message).toContain(problem);
    expect(parsed.error.message).toContain("What to do:");
  });
});

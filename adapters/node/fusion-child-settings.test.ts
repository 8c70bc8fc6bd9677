import { describe, expect, it } from "vitest";
import { CHILD_RETRY_POLICY, childSettingsJson } from "./fusion-child-settings.ts";

const parsed = (text: string | undefined) => JSON.parse(childSettingsJson(text, CHILD_RETRY_POLICY));
const EXPLICIT = { enabled: true, maxRetries: 3, baseDelayMs: 2_000, provider: { maxRetries: 0 } };

describe("childSettingsJson", () => {
  it("keeps the user's settings and sets the retry policy over theirs, the provider SDK's retries at 0", () => {
    const user = {
      defaultModel: "m",
      compaction: { enabled: false },
      retry: { enabled: false, maxRetries: 40, baseDelayMs: 60_000, provider: { maxRetries: 5, timeoutMs: 9 } },
    };
    expect(parsed(`\uFEFF${JSON.stringify(user)}`)).toEqual({
      defaultModel: "m",
      compaction: { enabled: false },
      retry: { ...EXPLICIT, provider: { maxRetries: 0, timeoutMs: 9 } },
    });
  });

  it.each([
    ["no settings file", undefined],
    ["settings Pi cannot read", "{not json"],
    ["settings that are not an object", "[1]"],
  ])("with %s writes the policy alone, as Pi would ignore them", (_name, text) => {
    expect(parsed(text)).toEqual({ retry: EXPLICIT });
  });

  it("writes the policy it is given", () => {
    const text = childSettingsJson("{}", { maxRetries: 1, baseDelayMs: 5 });
    expect(JSON.parse(text).retry).toEqual({ ...EXPLICIT, maxRetries: 1, baseDelayMs: 5 });
  });
});

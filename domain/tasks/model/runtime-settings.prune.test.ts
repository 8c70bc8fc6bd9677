import { describe, expect, it } from "vitest";
import { taskSettingsFromEnv } from "./runtime-settings.ts";

const DAY = 86_400_000;

describe("PI_BG_PRUNE_AFTER_DAYS", () => {
  it("defaults to 7 days; takes whole or fractional days; 0 and off turn pruning off", () => {
    expect(taskSettingsFromEnv({})).toMatchObject({ ok: true, value: { pruneAfterMs: 7 * DAY } });
    expect(taskSettingsFromEnv({ PI_BG_PRUNE_AFTER_DAYS: " 30 " })).toMatchObject({
      value: { pruneAfterMs: 30 * DAY },
    });
    expect(taskSettingsFromEnv({ PI_BG_PRUNE_AFTER_DAYS: "0.5" })).toMatchObject({ value: { pruneAfterMs: DAY / 2 } });
    expect(taskSettingsFromEnv({ PI_BG_PRUNE_AFTER_DAYS: "0" })).toMatchObject({ value: { pruneAfterMs: "off" } });
    expect(taskSettingsFromEnv({ PI_BG_PRUNE_AFTER_DAYS: "OFF" })).toMatchObject({ value: { pruneAfterMs: "off" } });
  });

  it.each(["-1", "7d", "1e3", "never", "36501", "Infinity"])("refuses '%s' loudly", (value) => {
    const r = taskSettingsFromEnv({ PI_BG_PRUNE_AFTER_DAYS: value });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain("PI_BG_PRUNE_AFTER_DAYS");
  });
});

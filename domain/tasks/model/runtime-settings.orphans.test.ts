import { describe, expect, it } from "vitest";
import { taskSettingsFromEnv } from "./runtime-settings.ts";

describe("PI_BG_ORPHANS", () => {
  it("defaults to reattach and accepts reattach or kill", () => {
    expect(taskSettingsFromEnv({})).toMatchObject({ ok: true, value: { orphanPolicy: "reattach" } });
    expect(taskSettingsFromEnv({ PI_BG_ORPHANS: " kill " })).toMatchObject({
      ok: true,
      value: { orphanPolicy: "kill" },
    });
    expect(taskSettingsFromEnv({ PI_BG_ORPHANS: "reattach" })).toMatchObject({
      ok: true,
      value: { orphanPolicy: "reattach" },
    });
  });

  it("any other value is a loud configuration error, not a silent default", () => {
    const r = taskSettingsFromEnv({ PI_BG_ORPHANS: "ignore" });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toMatchObject({
        code: "pi_bg_config_invalid",
        message: expect.stringContaining("PI_BG_ORPHANS"),
      });
  });
});

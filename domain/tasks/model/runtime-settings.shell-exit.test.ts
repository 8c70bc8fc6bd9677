import { describe, expect, it } from "vitest";
import { SHELL_EXIT_GRACE_MS, taskSettingsFromEnv } from "./runtime-settings.ts";

describe("PI_BG_SHELL_EXIT_GRACE_MS", () => {
  it("defaults to 5 s and takes whole milliseconds from 0 up to an hour", () => {
    expect(taskSettingsFromEnv({})).toMatchObject({ ok: true, value: { shellExitGraceMs: SHELL_EXIT_GRACE_MS } });
    expect(taskSettingsFromEnv({ PI_BG_SHELL_EXIT_GRACE_MS: " 0 " })).toMatchObject({
      ok: true,
      value: { shellExitGraceMs: 0 },
    });
    expect(taskSettingsFromEnv({ PI_BG_SHELL_EXIT_GRACE_MS: "3600000" })).toMatchObject({
      ok: true,
      value: { shellExitGraceMs: 3_600_000 },
    });
  });

  it.each(["-1", "1.5", "5s", "3600001", "NaN", "1e3x"])("refuses %j loudly instead of guessing", (value) => {
    const r = taskSettingsFromEnv({ PI_BG_SHELL_EXIT_GRACE_MS: value });
    expect(r.ok ? "accepted" : r.error.code).toBe("pi_bg_config_invalid");
    expect(r.ok ? "" : r.error.message).toContain("PI_BG_SHELL_EXIT_GRACE_MS");
  });
});

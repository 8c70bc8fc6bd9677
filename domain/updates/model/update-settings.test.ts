import { describe, expect, it } from "vitest";
import { DEFAULT_REGISTRY_URL, updateCheckSettings } from "./update-settings.ts";

describe("update check settings", () => {
  it("is on against registry.npmjs.org by default; npm_config_registry is not read", () => {
    expect(updateCheckSettings({ npm_config_registry: "https://mirror.example/" })).toEqual({
      ok: true,
      value: { mode: "on", registryUrl: DEFAULT_REGISTRY_URL },
    });
  });

  it("PI_OFFLINE and PI_BG_DISABLE_UPDATE_CHECK turn it off when 1, true or yes", () => {
    for (const flag of ["1", "true", "YES", " yes "]) {
      expect(updateCheckSettings({ PI_OFFLINE: flag })).toEqual({
        ok: true,
        value: { mode: "off", because: "PI_OFFLINE" },
      });
      expect(updateCheckSettings({ PI_BG_DISABLE_UPDATE_CHECK: flag, PI_BG_REGISTRY_URL: "nonsense" })).toEqual({
        ok: true,
        value: { mode: "off", because: "PI_BG_DISABLE_UPDATE_CHECK" },
      });
    }
    for (const flag of ["", "0", "false", "no"])
      expect(updateCheckSettings({ PI_OFFLINE: flag, PI_BG_DISABLE_UPDATE_CHECK: flag })).toMatchObject({
        value: { mode: "on" },
      });
  });

  it("PI_BG_REGISTRY_URL names the registry (trailing slashes dropped)", () => {
    expect(updateCheckSettings({ PI_BG_REGISTRY_URL: "http://127.0.0.1:4873//" })).toEqual({
      ok: true,
      value: { mode: "on", registryUrl: "http://127.0.0.1:4873" },
    });
    expect(updateCheckSettings({ PI_BG_REGISTRY_URL: "https://npm.corp.example/api/npm/" })).toMatchObject({
      value: { registryUrl: "https://npm.corp.example/api/npm" },
    });
  });

  it("refuses a registry URL that is not http(s) or carries credentials", () => {
    for (const url of ["registry.npmjs.org", "file:///etc/passwd", "ftp://x", "https://user:secret@npm.example"]) {
      const settings = updateCheckSettings({ PI_BG_REGISTRY_URL: url });
      expect(settings.ok ? "" : settings.error.code, url).toBe("pi_bg_config_invalid");
    }
  });
});

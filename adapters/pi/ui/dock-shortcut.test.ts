import { describe, expect, it } from "vitest";
import { dockShortcutFromEnv } from "./dock-shortcut.ts";

const read = (value: string | undefined) => dockShortcutFromEnv({ PI_BG_DOCK_SHORTCUT: value });

describe("PI_BG_DOCK_SHORTCUT", () => {
  it("defaults to shift+down, labelled Shift↓", () => {
    expect(read(undefined)).toEqual({ ok: true, value: { key: "shift+down", label: "Shift↓" } });
    expect(read("  ")).toEqual({ ok: true, value: { key: "shift+down", label: "Shift↓" } });
  });

  it("accepts other key ids and 'off'", () => {
    expect(read("ctrl+alt+b")).toEqual({ ok: true, value: { key: "ctrl+alt+b", label: "Ctrl+Alt+B" } });
    expect(read("Ctrl+pageDown")).toEqual({ ok: true, value: { key: "ctrl+pageDown", label: "Ctrl+PgDn" } });
    expect(read("ctrl++")).toEqual({ ok: true, value: { key: "ctrl++", label: "Ctrl++" } });
    expect(read("f9")).toEqual({ ok: true, value: { key: "f9", label: "F9" } });
    expect(read("off")).toEqual({ ok: true, value: undefined });
  });

  it.each(["shift+dwn", "hyper+b", "ctrl+ctrl+b", "b", "down", "ctrl+", "shift+down+x"])(
    "refuses %s loudly with pi_bg_config_invalid",
    (value) => {
      const result = read(value);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe("pi_bg_config_invalid");
      expect(result.error.message).toContain(value);
      expect(result.error.message).toContain("pi_bg_config_invalid");
    },
  );
});

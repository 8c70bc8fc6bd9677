import { describe, expect, it } from "vitest";
import { DOCK_SHORTCUT, shortcutFromEnv, taskShortcutsFromEnv } from "./shortcut-config.ts";

const read = (value: string | undefined) => shortcutFromEnv({ PI_BG_DOCK_SHORTCUT: value }, DOCK_SHORTCUT);

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

describe("PI_BG_CLEAR_SHORTCUT (the /bg-clear key) beside the dock's", () => {
  it("defaults to ctrl+alt+c; either can be off or another key", () => {
    expect(taskShortcutsFromEnv({})).toEqual({
      ok: true,
      value: { dock: { key: "shift+down", label: "Shift↓" }, clear: { key: "ctrl+alt+c", label: "Ctrl+Alt+C" } },
    });
    expect(taskShortcutsFromEnv({ PI_BG_CLEAR_SHORTCUT: "off" })).toEqual({
      ok: true,
      value: { dock: { key: "shift+down", label: "Shift↓" } },
    });
    expect(taskShortcutsFromEnv({ PI_BG_CLEAR_SHORTCUT: "f8", PI_BG_DOCK_SHORTCUT: "off" })).toEqual({
      ok: true,
      value: { clear: { key: "f8", label: "F8" } },
    });
  });

  it("refuses an invalid key or one key for both, naming the variables", () => {
    const invalid = taskShortcutsFromEnv({ PI_BG_CLEAR_SHORTCUT: "c" });
    expect(invalid.ok ? "" : invalid.error.message).toMatch(/^PI_BG_CLEAR_SHORTCUT='c' is invalid/);
    const same = taskShortcutsFromEnv({ PI_BG_CLEAR_SHORTCUT: "shift+down" });
    expect(same.ok ? "" : same.error.message).toMatch(
      /PI_BG_DOCK_SHORTCUT and PI_BG_CLEAR_SHORTCUT are both 'shift\+down'/,
    );
  });
});

import type { KeyId } from "@mariozechner/pi-tui";
import { err, ok, type Result, type TypedError } from "../../../domain/shared/model/result.ts";

/** A shortcut of the task UI: the variable that sets it and the key it has when the variable is unset. */
export interface ShortcutSetting {
  readonly variable: string;
  readonly fallback: string;
}

export const DOCK_SHORTCUT: ShortcutSetting = { variable: "PI_BG_DOCK_SHORTCUT", fallback: "shift+down" };
/** The reference's `/bg-clear` key. */
export const CLEAR_SHORTCUT: ShortcutSetting = { variable: "PI_BG_CLEAR_SHORTCUT", fallback: "ctrl+alt+c" };

export interface Shortcut {
  readonly key: KeyId;
  /** How the footer and help text name it, e.g. "Shift↓". */
  readonly label: string;
}

const MODIFIERS = ["ctrl", "shift", "alt", "super"] as const;
const SPECIAL = [
  "escape",
  "esc",
  "enter",
  "return",
  "tab",
  "space",
  "backspace",
  "delete",
  "insert",
  "clear",
  "home",
  "end",
  "pageUp",
  "pageDown",
  "up",
  "down",
  "left",
  "right",
];
const FUNCTION_KEYS = Array.from({ length: 12 }, (_, i) => `f${i + 1}`);
const SYMBOLS = [..."`-=[]\\;',./!@#$%^&*()_+|~{}:<>?"];
const SINGLE = /^[a-z0-9]$/;
const ARROWS: Record<string, string> = { up: "↑", down: "↓", left: "←", right: "→" };
const PRETTY: Record<string, string> = { pageUp: "PgUp", pageDown: "PgDn", escape: "Esc", esc: "Esc" };

const isBaseKey = (key: string): boolean =>
  SINGLE.test(key) || SPECIAL.includes(key) || FUNCTION_KEYS.includes(key) || SYMBOLS.includes(key);
const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

export function shortcutLabel(modifiers: readonly string[], base: string): string {
  const mods = modifiers.map(capitalise).join("+");
  const arrow = ARROWS[base];
  if (arrow !== undefined) return mods === "" ? arrow : `${mods}${arrow}`;
  const name = PRETTY[base] ?? (base.length === 1 ? base.toUpperCase() : capitalise(base));
  return mods === "" ? name : `${mods}+${name}`;
}

/**
 * Reads a shortcut's variable: unset means its fallback, `off` registers no shortcut, anything else must be
 * a Pi key id with at least one modifier (a bare function key is also fine), so typing is never taken over.
 */
export function shortcutFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  setting: ShortcutSetting,
): Result<Shortcut | undefined, TypedError<"pi_bg_config_invalid">> {
  const raw = env[setting.variable];
  const value = raw === undefined || raw.trim() === "" ? setting.fallback : raw.trim();
  if (value === "off") return ok(undefined);
  const parts = value.split("+");
  // "+" is itself a key: "ctrl++" splits into ["ctrl", "", ""].
  const base = value.endsWith("++") ? "+" : (parts.pop() ?? "");
  const modifiers = value.endsWith("++") ? parts.slice(0, -2) : parts;
  const lower = modifiers.map((m) => m.toLowerCase());
  const problem = !isBaseKey(base)
    ? `'${base}' is not a key Pi knows`
    : lower.some((m) => !(MODIFIERS as readonly string[]).includes(m))
      ? `unknown modifier in '${value}' (use ctrl, shift, alt or super)`
      : new Set(lower).size !== lower.length
        ? `a modifier repeats in '${value}'`
        : lower.length === 0 && !FUNCTION_KEYS.includes(base)
          ? `'${value}' has no modifier and would take over ordinary typing`
          : undefined;
  if (problem !== undefined) {
    return err({
      code: "pi_bg_config_invalid",
      message: `${setting.variable}='${raw ?? ""}' is invalid: ${problem}. Use a Pi key id such as shift+down or ctrl+alt+b, or 'off' to register no shortcut (pi_bg_config_invalid)`,
    });
  }
  return ok({ key: [...lower, base].join("+") as KeyId, label: shortcutLabel(lower, base) });
}

/** The dock's and /bg-clear's shortcuts; one key cannot be both. */
export function taskShortcutsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Result<{ dock?: Shortcut; clear?: Shortcut }, TypedError<"pi_bg_config_invalid">> {
  const dock = shortcutFromEnv(env, DOCK_SHORTCUT);
  if (!dock.ok) return dock;
  const clear = shortcutFromEnv(env, CLEAR_SHORTCUT);
  if (!clear.ok) return clear;
  if (dock.value !== undefined && dock.value.key === clear.value?.key)
    return err({
      code: "pi_bg_config_invalid",
      message: `${DOCK_SHORTCUT.variable} and ${CLEAR_SHORTCUT.variable} are both '${dock.value.key}': give one another key, or 'off' (pi_bg_config_invalid)`,
    });
  return ok({
    ...(dock.value === undefined ? {} : { dock: dock.value }),
    ...(clear.value === undefined ? {} : { clear: clear.value }),
  });
}

import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";

export const DEFAULT_REGISTRY_URL = "https://registry.npmjs.org";
/** The lookup's whole time box: connect, response and body (reference: 2000 ms). */
export const UPDATE_CHECK_TIMEOUT_MS = 2000;

export type UpdateCheckSettings =
  | { readonly mode: "on"; readonly registryUrl: string }
  | { readonly mode: "off"; readonly because: "PI_OFFLINE" | "PI_BG_DISABLE_UPDATE_CHECK" };

/** Pi's own reading of PI_OFFLINE (its package manager): 1, true or yes, any case. */
export function isEnvFlagSet(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes"].includes(value.trim().toLowerCase());
}

/**
 * The update check's controls: `PI_OFFLINE` (also set by `pi --offline`) and `PI_BG_DISABLE_UPDATE_CHECK`
 * turn it off; `PI_BG_REGISTRY_URL` names the registry (an http or https URL; default registry.npmjs.org).
 * `npm_config_registry` is not read: npm exports it into every script it runs, so it says nothing about
 * where this package was installed from. A bad URL is an error of the check, never of the session.
 */
export function updateCheckSettings(
  env: Readonly<Record<string, string | undefined>>,
): Result<UpdateCheckSettings, TypedError<"pi_bg_config_invalid">> {
  if (isEnvFlagSet(env.PI_OFFLINE)) return ok({ mode: "off", because: "PI_OFFLINE" });
  if (isEnvFlagSet(env.PI_BG_DISABLE_UPDATE_CHECK)) return ok({ mode: "off", because: "PI_BG_DISABLE_UPDATE_CHECK" });
  const raw = env.PI_BG_REGISTRY_URL?.trim() ?? "";
  if (raw === "") return ok({ mode: "on", registryUrl: DEFAULT_REGISTRY_URL });
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url === undefined || !["http:", "https:"].includes(url.protocol) || url.username !== "" || url.password !== "")
    return err({
      code: "pi_bg_config_invalid",
      message: `PI_BG_REGISTRY_URL must be an http(s) URL without credentials, not '${raw}'`,
    });
  return ok({ mode: "on", registryUrl: url.href.replace(/\/+$/, "") });
}

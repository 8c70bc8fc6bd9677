import type { ReleaseRegistry } from "../../../ports/release-registry.ts";
import { compareReleaseVersions, formatReleaseVersion, parseReleaseVersion } from "../model/release-version.ts";
import type { UpdateCheckSettings } from "../model/update-settings.ts";
import type { InstalledPackage, UpdateStatus } from "../model/update-status.ts";

/**
 * One update lookup: asks the registry for the package's `latest` dist-tag and compares it with the
 * installed version by semver precedence. Never throws for what the registry does; `signal` is the time box.
 */
export async function checkForUpdate(
  settings: UpdateCheckSettings,
  installed: InstalledPackage,
  registry: ReleaseRegistry,
  signal: AbortSignal,
): Promise<UpdateStatus> {
  if (settings.mode === "off") return { kind: "off", because: settings.because };
  const current = installed.version;
  const found = await registry.latestVersion(installed.name, signal);
  if (!found.ok) return { kind: "unavailable", current, error: found.error };
  if (found.value === undefined) return { kind: "unpublished", current };
  const latest = parseReleaseVersion(found.value);
  if (latest === undefined)
    return {
      kind: "unavailable",
      current,
      error: { code: "registry_bad_response", message: `the latest dist-tag '${found.value}' is not a version` },
    };
  const mine = parseReleaseVersion(current);
  const text = formatReleaseVersion(latest);
  // An installed version that is not semver (a local build) cannot be ordered: report, never announce.
  if (mine === undefined)
    return {
      kind: "unavailable",
      current,
      error: { code: "version_unreadable", message: `the installed version '${current}' is not a version` },
    };
  return compareReleaseVersions(latest, mine) > 0
    ? { kind: "newer", current, latest: text }
    : { kind: "current", current, latest: text };
}

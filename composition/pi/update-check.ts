import { readFileSync } from "node:fs";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { checkForUpdate } from "../../domain/updates/service/check-for-update.ts";
import { UPDATE_CHECK_TIMEOUT_MS, updateCheckSettings } from "../../domain/updates/model/update-settings.ts";
import type { InstalledPackage, UpdateStatus } from "../../domain/updates/model/update-status.ts";
import { NpmReleaseRegistry } from "../../adapters/node/npm-release-registry.ts";
import { PiUpdateNotice } from "../../adapters/pi/pi-update-notice.ts";

function installedPackage(): InstalledPackage {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    name?: unknown;
    version?: unknown;
  };
  return {
    name: typeof manifest.name === "string" ? manifest.name : "pi-background-tasks",
    version: typeof manifest.version === "string" ? manifest.version : "unknown",
  };
}

/**
 * The session's update check (imported at session_start, after start-up): the settings from the
 * environment, this package's name and version from its package.json, one GET to the registry bounded by
 * UPDATE_CHECK_TIMEOUT_MS and by the session's end.
 */
export function startUpdateCheck(
  ctx: ExtensionContext,
  env: Readonly<Record<string, string | undefined>> = process.env,
  timeoutMs = UPDATE_CHECK_TIMEOUT_MS,
): PiUpdateNotice {
  const installed = installedPackage();
  const settings = updateCheckSettings(env);
  const registryUrl = settings.ok && settings.value.mode === "on" ? settings.value.registryUrl : undefined;
  const run = async (signal: AbortSignal): Promise<UpdateStatus> => {
    if (!settings.ok) return { kind: "unavailable", current: installed.version, error: settings.error };
    // The time box, by hand: a timeout signal inside AbortSignal.any can be collected before it fires.
    const box = new AbortController();
    const timer = setTimeout(() => box.abort(), timeoutMs);
    timer.unref();
    const end = () => box.abort();
    signal.addEventListener("abort", end, { once: true });
    try {
      return await checkForUpdate(settings.value, installed, new NpmReleaseRegistry(registryUrl ?? ""), box.signal);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", end);
    }
  };
  return new PiUpdateNotice({ packageName: installed.name, registryUrl, run }, ctx);
}

import type { TypedError } from "../../shared/model/result.ts";

/** What one session's update check found; `/bg-update` reports it and the footer shows `newer` only. */
export type UpdateStatus =
  | { readonly kind: "off"; readonly because: "PI_OFFLINE" | "PI_BG_DISABLE_UPDATE_CHECK" }
  | { readonly kind: "newer"; readonly current: string; readonly latest: string }
  | { readonly kind: "current"; readonly current: string; readonly latest: string }
  /** The registry does not know the package (404): no newer release, and nothing is shown for it. */
  | { readonly kind: "unpublished"; readonly current: string }
  | { readonly kind: "unavailable"; readonly current: string; readonly error: TypedError };

export interface InstalledPackage {
  readonly name: string;
  readonly version: string;
}

/** The footer segment (reference §2.5): only when a newer release exists. */
export function updateFooterText(status: UpdateStatus): string | undefined {
  return status.kind === "newer" ? `⬆ v${status.latest} /bg-update` : undefined;
}

/** `/bg-update`'s answer. It shows how to update and never installs anything. */
export function updateReport(name: string, status: UpdateStatus, registryUrl: string | undefined): string {
  switch (status.kind) {
    case "off":
      return `The update check of ${name} is off (${status.because} is set); nothing was sent.`;
    case "newer":
      return [
        `${name} ${status.latest} is available; this is ${status.current}.`,
        `Update with:  pi install npm:${name}@${status.latest}`,
        "(or pi install -l … for a project-local install; nothing is installed by this command)",
      ].join("\n");
    case "current":
      return `${name} ${status.current} is up to date (latest on ${registryUrl ?? "the registry"}: ${status.latest}).`;
    case "unpublished":
      return `${name} ${status.current}: no newer release (${registryUrl ?? "the registry"} does not list the package).`;
    case "unavailable":
      return `${name} ${status.current}: could not check for a newer release: ${status.error.code}: ${status.error.message}`;
  }
}

import { err, ok, type Result } from "../../shared/model/result.ts";
import { admissionError, type DelegateError } from "./delegate-error.ts";

export interface RouteRef {
  readonly provider: string;
  readonly model: string;
}

/** One model the host can call, with the context window it declares (undefined when it declares none). */
export interface AvailableModel extends RouteRef {
  readonly contextWindow: number | undefined;
}

/** The route the child is pinned to: never substituted, never retried elsewhere. */
export interface PinnedRoute extends RouteRef {
  readonly contextWindow: number;
  readonly source: "explicit" | "parent_current";
}

const MAX_LISTED = 12;

export const routeLabel = (route: RouteRef): string => `${route.provider}/${route.model}`;

export function sameRoute(a: RouteRef, b: RouteRef): boolean {
  return a.provider === b.provider && a.model === b.model;
}

/**
 * The explicit route, else the parent's current one, looked up exactly among the available models.
 * No alias, no nearest match, no fallback: anything else is refused before anything exists.
 */
export function resolveRoute(
  requested: RouteRef | undefined,
  current: RouteRef | undefined,
  available: readonly AvailableModel[],
): Result<PinnedRoute, DelegateError<"route_unresolved" | "route_capacity_unknown">> {
  const wanted = requested ?? current;
  const source = requested !== undefined ? "explicit" : "parent_current";
  if (wanted === undefined) {
    return err(
      admissionError(
        "route_unresolved",
        "the parent has no current model and no route was given.",
        "select a model, or pass route {provider, model}.",
      ),
    );
  }
  const found = available.find((m) => sameRoute(m, wanted));
  if (found === undefined) {
    const listed = available.slice(0, MAX_LISTED).map(routeLabel).join(", ");
    const more = available.length > MAX_LISTED ? ` and ${available.length - MAX_LISTED} more` : "";
    return err(
      admissionError(
        "route_unresolved",
        `the ${source === "explicit" ? "requested" : "current"} route ${routeLabel(wanted)} is not among the available models; it is never substituted.`,
        available.length === 0
          ? "configure a model with credentials, then call again."
          : `pass one of: ${listed}${more}.`,
      ),
    );
  }
  const window = found.contextWindow;
  if (window === undefined || !Number.isFinite(window) || window <= 0) {
    return err(
      admissionError(
        "route_capacity_unknown",
        `the route ${routeLabel(wanted)} declares no usable context window, so no budget can be proven.`,
        "declare contextWindow for this model (models.json), or pass a route that declares one.",
      ),
    );
  }
  return ok({ provider: found.provider, model: found.model, contextWindow: window, source });
}

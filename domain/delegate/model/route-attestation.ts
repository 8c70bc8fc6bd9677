import type { Usage } from "../../shared/model/usage.ts";
import type { RouteRef } from "./delegate-route.ts";

/** One assistant message of the child, as the guard saw it at `message_end`. */
export interface RouteAttestation {
  readonly index: number;
  readonly provider: string;
  readonly model: string;
  /** The model id the provider's response named, when it named one other than the requested id. */
  readonly response_model: string | null;
  readonly stop_reason: string;
  readonly usage: Usage | "unavailable";
}

/** The fields of Pi's AssistantMessage an attestation reads; everything is checked, nothing trusted. */
export interface AssistantMessageView {
  readonly provider?: unknown;
  readonly model?: unknown;
  readonly responseModel?: unknown;
  readonly stopReason?: unknown;
  readonly usage?: unknown;
}

export function attestMessage(index: number, message: AssistantMessageView): RouteAttestation {
  return {
    index,
    provider: typeof message.provider === "string" ? message.provider : "",
    model: typeof message.model === "string" ? message.model : "",
    response_model:
      typeof message.responseModel === "string" && message.responseModel !== "" ? message.responseModel : null,
    stop_reason: typeof message.stopReason === "string" ? message.stopReason : "",
    usage: observedUsage(message.usage),
  };
}

/** `-2024-08-06` or `-20241022`: the snapshot suffixes providers append to a model alias. */
const DATED_SUFFIX = /^-(?:\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * Whether an attestation came from the pinned route. Provider and model must be equal; a response
 * model the provider named must be the same id or a dated snapshot of it (`<model>-2024-08-06`).
 */
export function attestationMatches(pinned: RouteRef, attestation: RouteAttestation): boolean {
  if (attestation.provider !== pinned.provider || attestation.model !== pinned.model) return false;
  const named = attestation.response_model;
  if (named === null || named === pinned.model) return true;
  return named.startsWith(`${pinned.model}-`) && DATED_SUFFIX.test(named.slice(pinned.model.length));
}

export function describeAttestation(a: RouteAttestation): string {
  return `${a.provider}/${a.model}${a.response_model === null ? "" : ` (response model ${a.response_model})`}`;
}

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/**
 * Pi fills in zeros when a provider reports no usage, so an all-zero token count is read as "not
 * reported" and recorded as unavailable, never as zero.
 */
export function observedUsage(raw: unknown): Usage | "unavailable" {
  if (typeof raw !== "object" || raw === null) return "unavailable";
  const u = raw as Record<string, unknown>;
  const c = (typeof u.cost === "object" && u.cost !== null ? u.cost : {}) as Record<string, unknown>;
  const tokens = [u.input, u.output, u.cacheRead, u.cacheWrite, u.totalTokens];
  const costs = [c.input, c.output, c.cacheRead, c.cacheWrite, c.total];
  if (![...tokens, ...costs].every(finite)) return "unavailable";
  const [input, output, cacheRead, cacheWrite, totalTokens] = tokens as number[];
  if ((input ?? 0) + (output ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0) + (totalTokens ?? 0) === 0)
    return "unavailable";
  const [ci, co, cr, cw, ct] = costs as number[];
  return {
    input: input ?? 0,
    output: output ?? 0,
    cacheRead: cacheRead ?? 0,
    cacheWrite: cacheWrite ?? 0,
    totalTokens: totalTokens ?? 0,
    cost: { input: ci ?? 0, output: co ?? 0, cacheRead: cr ?? 0, cacheWrite: cw ?? 0, total: ct ?? 0 },
  };
}

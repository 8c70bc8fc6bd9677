/**
 * Remediation is derived, not guessed: the whole workflow is re-planned with the request removed.
 * If a stage still does not fit, shortening the request cannot help. Otherwise the longest prefix
 * of the request that fits is found by bisection over code points, which gives the exact maximum
 * safe request size and the minimum byte reduction (that prefix fits; one more character does not).
 */
import { utf8Bytes } from "../../shared/model/canonical-json.ts";
import { RESERVED_OUTPUT_TOKENS, FRAMING_RESERVE_TOKENS, SAFETY_TOKENS } from "./budget-policy.ts";
import type { Remediation } from "./budget-errors.ts";
import { allFit, forecastAll, type PlanContext } from "./plan-context.ts";
import { prepareRequest, type RequestRendering, type StageForecast } from "./stage-forecast.ts";

export function deriveRemediation(context: PlanContext, request: string, rendering: RequestRendering): Remediation {
  const requestBytes = utf8Bytes(request);
  const withoutRequest = forecastAll(context, prepareRequest("", rendering));
  const stillBlocked = withoutRequest.filter((f) => f.status === "blocked");
  if (stillBlocked.length > 0) return cannotHelp(requestBytes, stillBlocked);
  const codePoints = [...request];
  const fitsWith = (count: number) => allFit(forecastAll(context, prepareRequest(codePoints.slice(0, count).join(""), rendering)));
  let lo = 0; // fits: the counterfactual above
  let hi = codePoints.length; // the caller only asks when the full request does not fit
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (fitsWith(mid)) lo = mid;
    else hi = mid;
  }
  const safeBytes = utf8Bytes(codePoints.slice(0, lo).join(""));
  const multibyte = requestBytes - [...request].filter((c) => c.charCodeAt(0) < 128).length;
  const shareBp = requestBytes === 0 ? 0 : Math.floor((multibyte * 10000) / requestBytes);
  return {
    kind: "shorten_request",
    request_bytes: requestBytes,
    minimum_byte_reduction: requestBytes - safeBytes,
    maximum_safe_request_bytes: safeBytes,
    request_multibyte_share_bp: shareBp,
    advice: [
      `The request decides feasibility: the same workflow fits with the request removed.`,
      `Shorten the request by at least ${requestBytes - safeBytes} bytes, to at most ${safeBytes} bytes (it is ${requestBytes} bytes now).`,
      shareBp >= 5000
        ? "The request is mostly multibyte text, which costs more tokens per byte; removing multibyte characters saves the most."
        : "The request is mostly ASCII text; dense content such as base64, hashes or minified code costs the most tokens per byte.",
    ],
  };
}

function cannotHelp(requestBytes: number, blocked: readonly StageForecast[]): Remediation {
  const rows = blocked.map((f) => ({
    stage: f.stage,
    route: f.route,
    token_bound: f.input_only.tokens,
    minimum_context_window: f.input_only.tokens + RESERVED_OUTPUT_TOKENS + FRAMING_RESERVE_TOKENS + SAFETY_TOKENS,
  }));
  const first = rows[0];
  return {
    kind: "request_cannot_help",
    request_bytes: requestBytes,
    blocked_without_request: rows,
    advice: [
      "Shortening the request cannot help: the workflow does not fit even with the request removed.",
      "Start a fresh conversation so less context is projected into every stage,",
      first === undefined
        ? "or raise the context window of the blocked routes."
        : `or configure a model for ${first.route} with a context window of at least ${first.minimum_context_window} tokens.`,
    ],
  };
}

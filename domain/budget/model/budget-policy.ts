/**
 * Fusion budget policy `fusion-budget-policy-v3`: the numbers every route and stage is held to.
 */
import { utf8Bytes } from "../../shared/model/canonical-json.ts";
import { CONSERVATIVE_BYTES_PER_TOKEN } from "./estimator-calibration.ts";

export const FUSION_BUDGET_POLICY = "fusion-budget-policy-v3";
export const FUSION_BUDGET_PLAN_SCHEMA = "pi-background-tasks.fusion-budget-plan.v3";

const KIB = 1024;

/** Caps on child output, measured on the JSON-rendered form so escape expansion counts. */
export const OUTPUT_CONTRACT_BYTES = {
  candidate: 48 * KIB,
  evaluator: 64 * KIB,
  merger: 64 * KIB,
  diagnostics: 8 * KIB,
} as const;
export type OutputContract = keyof typeof OUTPUT_CONTRACT_BYTES;

/** The largest contract at the conservative rate: ceil(64 KiB / 2.00) = 32,768 tokens. */
export const RESERVED_OUTPUT_TOKENS = Math.ceil(OUTPUT_CONTRACT_BYTES.merger / CONSERVATIVE_BYTES_PER_TOKEN);
export const FRAMING_RESERVE_TOKENS = 0;
export const SAFETY_TOKENS = 4096;
export const MIN_USABLE_INPUT_TOKENS = 8192;
/** 32,768 + 0 + 4,096 + 8,192 = 45,056. */
export const MIN_CONTEXT_WINDOW =
  RESERVED_OUTPUT_TOKENS + FRAMING_RESERVE_TOKENS + SAFETY_TOKENS + MIN_USABLE_INPUT_TOKENS;
/** Advisory warning at or above 80% of an allowance, in basis points. */
export const UTILISATION_WARNING_BP = 8000;

/** Bytes of `JSON.stringify(text)` in UTF-8: quotes and escapes included. */
export function jsonRenderedBytes(text: string): number {
  return utf8Bytes(JSON.stringify(text));
}

export function exceedsOutputContract(contract: OutputContract, text: string): boolean {
  return jsonRenderedBytes(text) > OUTPUT_CONTRACT_BYTES[contract];
}

/** Basis points of `tokens` over `allowance`, floored; an allowance of zero or less is always 10000+. */
export function utilisationBp(tokens: number, allowance: number): number {
  if (allowance <= 0) return tokens > 0 ? Number.MAX_SAFE_INTEGER : 0;
  return Math.floor((tokens * 10000) / allowance);
}

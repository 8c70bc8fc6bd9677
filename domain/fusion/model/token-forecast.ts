import type { CalibrationGate, InputTokenEstimate, RateSource } from "../../budget/model/input-token-estimator.ts";

/** Input-token forecast for a text sent to one provider; must never under-count. */
export interface TokenForecast {
  readonly tokens: number;
  /** Which rate was used and why, recorded in the plan. */
  readonly source: string;
  /** The estimator's own record, when it keeps one: persisted per stage in `budget-plan.json`. */
  readonly record?: ForecastRecord;
}

/** What the plan keeps of one estimate: why this rate, and what the text is made of. */
export interface ForecastRecord {
  readonly rate_source: RateSource;
  readonly backed: boolean;
  readonly fatal_rates: { readonly known_text: string; readonly multibyte: string };
  /** One token per byte plus the intercept: the provable ceiling, advisory next to the fatal forecast. */
  readonly advisory_provable_tokens: number;
  readonly gate: CalibrationGate;
  readonly byte_classes: InputTokenEstimate["byte_classes"];
  readonly class_tokens: InputTokenEstimate["class_tokens"];
}
export type TokenEstimator = (
  text: string,
  route: { readonly provider: string; readonly model: string },
) => TokenForecast;

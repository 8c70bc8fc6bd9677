import { utf8Bytes } from "../../shared/model/canonical-json.ts";
import type { FusionStage } from "./fusion-workflow.ts";

const KIB = 1024;

/** Largest answer each stage may return, in JSON-rendered bytes (escape expansion counts). */
export const OUTPUT_CONTRACT_BYTES: Readonly<Record<FusionStage, number>> = {
  candidate: 48 * KIB,
  evaluation: 64 * KIB,
  merge: 64 * KIB,
};

/** Bounds of the validation errors fed to the single evaluation repair attempt. */
export const REPAIR_ERROR_LIMITS = { maxErrors: 24, maxCharsEach: 500, maxCharsTotal: 4000 } as const;

/**
 * The bytes an answer occupies once embedded in a later stage's JSON input: `JSON.stringify(text)`,
 * quotes and escapes included. This is the size every later prompt really pays.
 */
export function jsonRenderedBytes(text: string): number {
  return utf8Bytes(JSON.stringify(text));
}

export interface OutputContractViolation {
  readonly stage: FusionStage;
  readonly reason: "blank" | "too_large";
  readonly bytes: number;
  readonly limit: number;
  readonly message: string;
}

/** A stage answer must say something and fit its contract; nothing is ever cut to make it fit. */
export function checkOutputContract(stage: FusionStage, text: string): OutputContractViolation | undefined {
  const limit = OUTPUT_CONTRACT_BYTES[stage];
  const bytes = jsonRenderedBytes(text);
  if (text.trim().length === 0) {
    return { stage, reason: "blank", bytes, limit, message: `the ${stage} answer is empty or whitespace only` };
  }
  if (bytes > limit) {
    return {
      stage,
      reason: "too_large",
      bytes,
      limit,
      message: `the ${stage} answer is ${bytes} JSON-rendered bytes, over its ${limit}-byte output contract`,
    };
  }
  return undefined;
}

/** What each stage's prompt embeds from earlier stages at worst, for budget forecasts with empty slots. */
export const EMBEDDED_OUTPUT_BYTES = {
  candidate: 0,
  evaluation: 3 * OUTPUT_CONTRACT_BYTES.candidate,
  evaluation_repair: 3 * OUTPUT_CONTRACT_BYTES.candidate + OUTPUT_CONTRACT_BYTES.evaluation + repairErrorsWorstBytes(),
  merge: 3 * OUTPUT_CONTRACT_BYTES.candidate + OUTPUT_CONTRACT_BYTES.evaluation,
  /** Only the rejected answer: a candidate's repair sees nothing of the other stages. */
  candidate_repair: OUTPUT_CONTRACT_BYTES.candidate + repairErrorsWorstBytes(),
  merge_repair:
    3 * OUTPUT_CONTRACT_BYTES.candidate +
    OUTPUT_CONTRACT_BYTES.evaluation +
    OUTPUT_CONTRACT_BYTES.merge +
    repairErrorsWorstBytes(),
} as const;

/** A UTF-16 unit renders as at most 6 JSON bytes (`\u001f`); each listed error adds quotes and a comma. */
function repairErrorsWorstBytes(): number {
  return REPAIR_ERROR_LIMITS.maxCharsTotal * 6 + (REPAIR_ERROR_LIMITS.maxErrors + 1) * 3;
}

import { sha256Hex } from "../../domain/shared/model/canonical-json.ts";

/**
 * The ways real models get a stage's answer wrong, as the realistic mode of the scripted model plays
 * them: wrapping and remarks around the answer, an answer cut at the output limit or empty, a closed
 * JSON object with a key in the wrong case or one too many, a merger that drops or invents a citation,
 * an evaluator that decides one finding twice or skips one, and transient provider failures.
 */
export const DEVIATION_KINDS = [
  "fenced",
  "prefaced",
  "closing_remark",
  "cut_off",
  "empty",
  "key_case",
  "extra_key",
  "merger_omits_citation",
  "merger_invents_citation",
  "evaluator_decides_twice",
  "evaluator_skips",
  "http_429",
  "http_500",
  "http_503",
  "dropped_connection",
] as const;

export type DeviationKind = (typeof DEVIATION_KINDS)[number];

export type TransientKind = Extract<DeviationKind, "http_429" | "http_500" | "http_503" | "dropped_connection">;

/** What the stage's answer is shaped like, which decides the kinds that can touch it. */
export type AnswerRole = "json" | "evaluation" | "cited_text" | "text";

/** The answer as the deviating model sends it. */
export type DeviatedAnswer =
  | { readonly kind: "answer"; readonly text: string; readonly finishReason?: "length" }
  | { readonly kind: "transient"; readonly failure: TransientKind };

const TRANSIENT = new Set<DeviationKind>(["http_429", "http_500", "http_503", "dropped_connection"]);

/**
 * Whether call `key` deviates, and how: seeded, so the same (seed, key) always draws the same kind.
 * Every kind is equally likely once a call deviates, whatever the answer's role.
 */
export function drawDeviation(seed: number, key: string, probability: number): DeviationKind | undefined {
  const digest = sha256Hex(`${seed}\u0000${key}`);
  const roll = Number.parseInt(digest.slice(0, 8), 16) / 2 ** 32;
  if (roll >= probability) return undefined;
  return DEVIATION_KINDS[Number.parseInt(digest.slice(8, 16), 16) % DEVIATION_KINDS.length];
}

/**
 * `answer` as a model making deviation `kind` sends it, or undefined when the kind cannot touch an
 * answer of this role (a merger's citations in a review, a wrong key in plain text): the answer goes out
 * as it is.
 */
export function deviate(kind: DeviationKind, role: AnswerRole, answer: string): DeviatedAnswer | undefined {
  if (TRANSIENT.has(kind)) return { kind: "transient", failure: kind as TransientKind };
  const text = (value: string): DeviatedAnswer => ({ kind: "answer", text: value });
  const json = role === "json" || role === "evaluation";
  switch (kind) {
    case "fenced":
      return text(`\`\`\`${json ? "json" : ""}\n${answer}\n\`\`\``);
    case "prefaced":
      return text(`Here is my answer:\n\n${answer}`);
    case "closing_remark":
      return text(`${answer}\n\nLet me know if you need anything else.`);
    case "cut_off":
      return { kind: "answer", text: answer.slice(0, Math.floor(answer.length / 2)), finishReason: "length" };
    case "empty":
      return text("");
    case "key_case":
      return json ? text(answer.replace('"schema_version"', '"Schema_Version"')) : undefined;
    case "extra_key":
      return json ? text(answer.replace(/\}\s*$/, ',"confidence":"high"}')) : undefined;
    case "merger_omits_citation":
      return role === "cited_text" ? citationsChanged(answer, (ids) => ids.slice(1)) : undefined;
    case "merger_invents_citation":
      return role === "cited_text" ? citationsChanged(answer, (ids) => [...ids, "C-F999"]) : undefined;
    case "evaluator_decides_twice":
      return role === "evaluation" ? decisionsChanged(answer, (d) => [...d, ...d.slice(0, 1)]) : undefined;
    case "evaluator_skips":
      return role === "evaluation" ? decisionsChanged(answer, (d) => d.slice(1)) : undefined;
    default:
      return undefined;
  }
}

const CITATION = /\[([A-C]-F\d{3})\]/g;

function citationsChanged(answer: string, change: (ids: string[]) => string[]): DeviatedAnswer | undefined {
  const ids = [...answer.matchAll(CITATION)].map((m) => m[1] ?? "");
  if (ids.length === 0) return undefined;
  const body = answer.replace(CITATION, "").replace(/ {2,}/g, " ");
  return {
    kind: "answer",
    text: `${body.trim()} ${change(ids)
      .map((id) => `[${id}]`)
      .join(" ")}`.trim(),
  };
}

type Decisions = { validation_accounting?: { decisions?: unknown[] } };

function decisionsChanged(answer: string, change: (decisions: unknown[]) => unknown[]): DeviatedAnswer | undefined {
  const parsed = JSON.parse(answer) as Decisions;
  const decisions = parsed.validation_accounting?.decisions;
  if (decisions === undefined || decisions.length === 0) return undefined;
  const accounting = { ...parsed.validation_accounting, decisions: change(decisions) };
  return { kind: "answer", text: JSON.stringify({ ...parsed, validation_accounting: accounting }) };
}

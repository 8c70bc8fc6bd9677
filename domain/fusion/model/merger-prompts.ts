import { canonicalJsonOf } from "../../shared/model/canonical-json.ts";
import { OUTPUT_CONTRACT_BYTES } from "./output-contracts.ts";
import { CANONICAL_INPUT_TITLE, INPUT_GUIDE, renderPrompt } from "./prompt-sections.ts";
import type { MergeInputDocument } from "./stage-inputs.ts";

export const MERGE_INPUT_TITLE = "MERGE INPUT";

const MERGE_KIB = OUTPUT_CONTRACT_BYTES.merge / 1024;

export const MERGER_SYSTEM_PROMPT = [
  "You write the final answer to a request. You are given three independent draft answers and an evaluation of them that ends in a synthesis plan.",
  "Follow the plan: carry every item of must_include, settle every item of must_resolve and every conflict the way the evaluation resolved it, and keep out everything in must_avoid. Where the drafts are wrong, do not repeat them.",
  "Write one direct, self-contained answer in Markdown for the person who asked. Never mention drafts, candidates, letters A/B/C, the evaluation, or that answers were combined.",
  `Keep the answer under ${MERGE_KIB} KiB.`,
].join("\n\n");

const MERGE_GUIDE = `The ${MERGE_INPUT_TITLE} section (schema pi-background-tasks.fusion-merge-input.v1) holds blind_candidates (the drafts A, B and C) and evaluation (schema pi-background-tasks.fusion-evaluation.v1) with its synthesis_plan.`;

export function mergerPrompt(
  canonicalInputJson: string,
  merge: MergeInputDocument,
  inputGuide: string = INPUT_GUIDE,
): string {
  return renderPrompt(
    [inputGuide, MERGE_GUIDE],
    [
      { title: CANONICAL_INPUT_TITLE, json: canonicalInputJson },
      { title: MERGE_INPUT_TITLE, json: canonicalJsonOf(merge) },
    ],
    "Write the final answer now.",
  );
}

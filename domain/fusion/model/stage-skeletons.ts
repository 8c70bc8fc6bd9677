import { CANDIDATE_LETTERS } from "./evaluation-schema.ts";
import type { StagePromptSkeleton } from "./fusion-budget-gate.ts";
import type { ManifestRoutes } from "./fusion-manifest.ts";
import type { FusionCapability } from "./fusion-workflow.ts";
import { EMBEDDED_OUTPUT_BYTES } from "./output-contracts.ts";
import { blindCandidatesDocument, mergeInputDocument, repairInputDocument } from "./stage-inputs.ts";
import type { FusionWorkflowProfile } from "./workflow-profile.ts";

/**
 * Every stage prompt rendered by the same builders the run uses, with each embedded earlier output
 * left empty; the budget adds `embeddedOutputBytes` for what will fill them.
 */
export function stagePromptSkeletons(
  profile: FusionWorkflowProfile,
  capability: FusionCapability,
  routes: ManifestRoutes,
  canonicalInputJson: string,
): StagePromptSkeleton[] {
  const emptyBlind = blindCandidatesDocument(CANDIDATE_LETTERS.map((letter) => ({ candidate_id: letter, answer: "" })));
  const prompts = profile.prompts;
  const candidate = prompts.candidate(canonicalInputJson);
  const candidateSystem = profile.candidateSystemPrompt(capability);
  const noErrors = { shown: [], total: 0, omitted: 0, shortened: 0 };
  const findings = profile.hostFindingsEmbeddedBytes;
  return [
    ...routes.candidates.map((route, i) => ({
      stage: `candidate-${i + 1}` as "candidate-1" | "candidate-2" | "candidate-3",
      route,
      systemPrompt: candidateSystem,
      prompt: candidate,
      embeddedOutputBytes: EMBEDDED_OUTPUT_BYTES.candidate,
      mandatory: true,
    })),
    {
      stage: "evaluation",
      route: routes.evaluator,
      systemPrompt: profile.evaluatorSystemPrompt,
      prompt: prompts.evaluator(canonicalInputJson, emptyBlind),
      embeddedOutputBytes: EMBEDDED_OUTPUT_BYTES.evaluation + findings,
      mandatory: true,
    },
    {
      stage: "evaluation_repair",
      route: routes.evaluator,
      systemPrompt: profile.repairSystemPrompt,
      prompt: prompts.repair(canonicalInputJson, repairInputDocument(emptyBlind, "", noErrors)),
      embeddedOutputBytes: EMBEDDED_OUTPUT_BYTES.evaluation_repair + findings,
      mandatory: false,
    },
    {
      stage: "merge",
      route: routes.merger,
      systemPrompt: profile.mergerSystemPrompt,
      prompt: prompts.merger(canonicalInputJson, mergeInputDocument(emptyBlind, {})),
      embeddedOutputBytes: EMBEDDED_OUTPUT_BYTES.merge + findings,
      mandatory: true,
    },
  ];
}

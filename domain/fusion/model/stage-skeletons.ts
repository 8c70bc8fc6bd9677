import { CANDIDATE_LETTERS } from "./evaluation-schema.ts";
import { candidateRepairStage, type StagePromptSkeleton } from "./fusion-budget-gate.ts";
import type { ManifestRoutes } from "./fusion-manifest.ts";
import type { CandidateSlot, FusionCapability } from "./fusion-workflow.ts";
import { EMBEDDED_OUTPUT_BYTES } from "./output-contracts.ts";
import {
  blindCandidatesDocument,
  mergeInputDocument,
  repairInputDocument,
  type BlindCandidatesDocument,
} from "./stage-inputs.ts";
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
      prompt: prompts.repair(canonicalInputJson, repairInputDocument(emptyBlind, "", NO_ERRORS)),
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
    ...repairSkeletons(profile, routes, canonicalInputJson, emptyBlind, findings),
  ];
}

const NO_ERRORS = { shown: [], total: 0, omitted: 0, shortened: 0 };

/** The workflow's candidate and merger repairs, forecast like the evaluation repair. */
function repairSkeletons(
  profile: FusionWorkflowProfile,
  routes: ManifestRoutes,
  canonicalInputJson: string,
  emptyBlind: BlindCandidatesDocument,
  findings: number,
): StagePromptSkeleton[] {
  const skeletons: StagePromptSkeleton[] = [];
  const { candidateRepair, mergeRepair } = profile;
  if (candidateRepair !== undefined)
    routes.candidates.forEach((route, i) =>
      skeletons.push({
        stage: candidateRepairStage((i + 1) as CandidateSlot),
        route,
        systemPrompt: candidateRepair.systemPrompt,
        prompt: candidateRepair.prompt("", NO_ERRORS),
        embeddedOutputBytes: EMBEDDED_OUTPUT_BYTES.candidate_repair,
        mandatory: false,
      }),
    );
  if (mergeRepair !== undefined)
    skeletons.push({
      stage: "merge_repair",
      route: routes.merger,
      systemPrompt: mergeRepair.systemPrompt,
      prompt: mergeRepair.prompt(canonicalInputJson, mergeInputDocument(emptyBlind, {}), "", NO_ERRORS),
      embeddedOutputBytes: EMBEDDED_OUTPUT_BYTES.merge_repair + findings,
      mandatory: false,
    });
  return skeletons;
}

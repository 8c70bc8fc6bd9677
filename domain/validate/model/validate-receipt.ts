import type { CompletionDelivery } from "../../tasks/model/launch-receipt.ts";

/** What the `fusion_validate` tool says about itself and returns at launch; the host adapter renders it. */
export const FUSION_LAUNCH_SCHEMA = "pi-background-tasks.fusion-launch.v1";

export const FUSION_VALIDATE_LABEL = "Fusion Validate";

export const FUSION_VALIDATE_DESCRIPTION =
  "Starts an advisory, read-only review of completed work by three independent reviewers, a blind evaluator and a merger, as a tracked background task, and returns at once with its task id. Fetch the verified report with bg_result after the completion notification. It never modifies files and does not replace builds, tests or linters.";

export const FUSION_VALIDATE_GUIDELINES: readonly string[] = [
  "Use fusion_validate after finishing a change, to have it reviewed against its objective and acceptance criteria.",
  "Reviewers see only the arguments and the repository: restate in background any fact they cannot read in files (for example output you saw from a tool).",
  "Set verification to status 'provided' with the checks you actually ran and their outcomes, or 'not_run' with the reason; never invent evidence.",
  "After launching, continue with independent work or end your turn; do not poll. When the completion notification arrives, call bg_result once with the task id. Do not modify files in the reviewed scope while it runs.",
];

/** The description and guidelines for a host that cannot start a turn: the report is awaited with bg_wait. */
export const FUSION_VALIDATE_WAIT_DESCRIPTION =
  "Starts an advisory, read-only review of completed work by three independent reviewers, a blind evaluator and a merger, as a tracked background task, and returns at once with its task id. When you need the report, wait for the task with bg_wait (a completion notification is also sent), then fetch the verified report with bg_result. It never modifies files and does not replace builds, tests or linters.";

export const FUSION_VALIDATE_WAIT_GUIDELINES: readonly string[] = [
  ...FUSION_VALIDATE_GUIDELINES.slice(0, -1),
  "After launching, continue with independent work; do not poll. When you need the report, call bg_wait with the task id (it blocks, bounded), then call bg_result once with the task id. Do not modify files in the reviewed scope while it runs.",
];

/** The tool's self-description on a host with the given completion delivery. */
export function validateToolWording(delivery: CompletionDelivery): {
  readonly description: string;
  readonly guidelines: readonly string[];
} {
  return delivery === "agent_turn"
    ? { description: FUSION_VALIDATE_DESCRIPTION, guidelines: FUSION_VALIDATE_GUIDELINES }
    : { description: FUSION_VALIDATE_WAIT_DESCRIPTION, guidelines: FUSION_VALIDATE_WAIT_GUIDELINES };
}

export interface FusionLaunchReceipt {
  readonly schema_version: typeof FUSION_LAUNCH_SCHEMA;
  readonly task: string;
  readonly run_id: string;
  readonly workflow: "validate";
  readonly artifact_dir: string;
}

export function validateLaunchReceipt(
  taskId: string,
  runId: string,
  artifactDir: string,
  delivery: CompletionDelivery = "agent_turn",
): { readonly details: FusionLaunchReceipt; readonly text: string } {
  const next =
    delivery === "agent_turn"
      ? `Continue with independent work or end your turn: the completion notification will wake you. Then call bg_result({"taskId": "${taskId}"}) once.`
      : `Continue with independent work; when you need the report, call bg_wait({"taskId": "${taskId}"}) (it blocks, bounded; a completion notification is also sent), then call bg_result({"taskId": "${taskId}"}) once.`;
  return {
    details: {
      schema_version: FUSION_LAUNCH_SCHEMA,
      task: taskId,
      run_id: runId,
      workflow: "validate",
      artifact_dir: artifactDir,
    },
    text: [
      `fusion_validate started as background task ${taskId}; there is no result yet.`,
      next,
      "Do not modify files in the reviewed scope while the review runs: reviewers read the repository live.",
      `Artifacts: ${artifactDir}`,
    ].join("\n"),
  };
}

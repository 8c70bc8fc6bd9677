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

export interface FusionLaunchReceipt {
  readonly schema_version: typeof FUSION_LAUNCH_SCHEMA;
  readonly task: string;
  readonly run_id: string;
  readonly workflow: "validate";
  readonly artifact_dir: string;
}

export function validateLaunchReceipt(taskId: string, runId: string, artifactDir: string): { readonly details: FusionLaunchReceipt; readonly text: string } {
  return {
    details: { schema_version: FUSION_LAUNCH_SCHEMA, task: taskId, run_id: runId, workflow: "validate", artifact_dir: artifactDir },
    text: [
      `fusion_validate started as background task ${taskId}; there is no result yet.`,
      `Continue with independent work or end your turn: the completion notification will wake you. Then call bg_result({"taskId": "${taskId}"}) once.`,
      "Do not modify files in the reviewed scope while the review runs: reviewers read the repository live.",
      `Artifacts: ${artifactDir}`,
    ].join("\n"),
  };
}

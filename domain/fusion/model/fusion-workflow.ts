/** Workflows, capabilities, stage names, run ids and attempt prefixes shared by every Fusion module. */
export type FusionWorkflow = "brainstorm" | "validate";
export type FusionCapability = "reason" | "inspect" | "research";
/** Who started the run: the `fusion_*` tool or the `/fusion` command. */
export type FusionSource = "tool" | "command";
export type CandidateSlot = 1 | 2 | 3;
export type FusionStage = "candidate" | "evaluation" | "merge";

export const CANDIDATE_SLOTS: readonly CandidateSlot[] = [1, 2, 3];
export const FUSION_CAPABILITIES: readonly FusionCapability[] = ["reason", "inspect", "research"];

/** A model a stage runs on, as the caller resolved it. */
export interface FusionModelRef {
  readonly provider: string;
  readonly model: string;
}

/** A model plus the thinking level its child is launched with (the runner's `ChildRoute`). */
export interface FusionRoute extends FusionModelRef {
  readonly thinking: string;
}

export interface FusionModelRoutes {
  readonly candidates: readonly [FusionModelRef, FusionModelRef, FusionModelRef];
  readonly evaluator: FusionModelRef;
  readonly merger: FusionModelRef;
}

export const INSPECT_TOOLS: readonly string[] = ["read", "grep", "find", "ls"];
export const WEB_FETCH_TOOL = "fusion_web_fetch";

/** The candidate tool allowlist for a capability. Evaluator and merger always get none (see STAGE_TOOLS_NONE). */
export function candidateTools(capability: FusionCapability): readonly string[] {
  switch (capability) {
    case "reason":
      return [];
    case "inspect":
      return INSPECT_TOOLS;
    case "research":
      return [...INSPECT_TOOLS, WEB_FETCH_TOOL];
  }
}

export const STAGE_TOOLS_NONE: readonly string[] = [];

const RUN_ID_PREFIX: Readonly<Record<FusionWorkflow, string>> = { brainstorm: "f", validate: "v" };
const HEX_128 = /^[0-9a-f]{32}$/;

/** `f` + 32 hex for brainstorm, `v` + 32 hex for validate; `hex` is 16 random bytes as lowercase hex. */
export function runIdFor(workflow: FusionWorkflow, hex: string): string {
  if (!HEX_128.test(hex)) throw new Error(`run id needs 32 lowercase hex characters, got '${hex}'`);
  return `${RUN_ID_PREFIX[workflow]}${hex}`;
}

export function isRunId(id: string, workflow?: FusionWorkflow): boolean {
  const match = /^([fv])([0-9a-f]{32})$/.exec(id);
  if (match === null) return false;
  return workflow === undefined || match[1] === RUN_ID_PREFIX[workflow];
}

/** `candidate-<slot>.attempt-<n>`, `evaluation.attempt-<n>`, `merge.attempt-<n>`. */
export function attemptPrefix(stage: FusionStage, attempt: number, slot?: CandidateSlot): string {
  if (!Number.isInteger(attempt) || attempt < 1) throw new Error(`attempt must be a positive integer, got ${attempt}`);
  if (stage === "candidate") {
    if (slot === undefined) throw new Error("a candidate attempt needs its slot");
    return `candidate-${slot}.attempt-${attempt}`;
  }
  return `${stage}.attempt-${attempt}`;
}

export function withThinking(ref: FusionModelRef, thinking: string): FusionRoute {
  return { provider: ref.provider, model: ref.model, thinking };
}

// The demo's Fusion part: the scripted parent calls fusion_brainstorm, then fusion_validate on a small file,
// is woken by the review's completion notice and reads the report with bg_result. Every Fusion child is a
// real `pi` process answered by the Fusion-aware scripted roles.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fusionRoleResponder, STORE_TS } from "../adapters/fake/scripted-fusion-roles.ts";
import type { ResponderInput, ScriptedReply } from "../adapters/fake/scripted-model-server.ts";
import type { PiRecord } from "../adapters/pi/e2e/pi-cli.ts";
import type { PiRpcClient } from "../adapters/pi/e2e/rpc-client.ts";
import { describeFusionRun } from "./demo-fusion-run.ts";
import { latestCue } from "./demo-task-turns.ts";

export const BRAINSTORM_PROMPT = "Ask Fusion: how should we speed up the build?";
export const VALIDATE_PROMPT = "I made save() in store.ts durable. Have Fusion review the change in the background.";
const REVIEW_DONE = "Fusion's review is in:";
const RUN_TIMEOUT_MS = 60_000;

const VALIDATE_ARGS = {
  objective: "Make the store durable",
  background: ["store.ts keeps the user's data"],
  changeSummary: "Rewrote save()",
  scope: ["store.ts"],
  acceptanceCriteria: ["save() survives a crash"],
  verification: { status: "not_run", reason: "no test harness yet" },
};

/** Explicit slots: scripted-a's 32k context window is below what a Fusion stage needs, so b and c serve. */
const FUSION_MODELS = {
  schema_version: "pi-background-tasks.fusion-models.v1",
  candidates: ["scripted/scripted-b", "scripted/scripted-c", "scripted/scripted-b"],
  evaluator: "scripted/scripted-c",
  merger: "scripted/scripted-c",
};

/** Writes what the Fusion part needs before pi starts: the five model slots and the file to review. */
export function prepareFusionDemo(agentDir: string, workDir: string): void {
  writeFileSync(join(agentDir, "fusion-models.json"), JSON.stringify(FUSION_MODELS));
  writeFileSync(join(workDir, "store.ts"), STORE_TS);
}

/** The parent's Fusion turns, or undefined when the conversation is elsewhere. */
function fusionParent(input: ResponderInput): ScriptedReply | undefined {
  const cue = latestCue(input.body);
  const answered = input.lastMessageRole === "tool" ? input.toolResults.join("\n") : undefined;
  const call = (name: string, args: Record<string, unknown>): ScriptedReply => ({
    toolCalls: [{ name, arguments: args }],
  });
  if (cue.includes(BRAINSTORM_PROMPT))
    return answered === undefined
      ? call("fusion_brainstorm", { prompt: "How should we speed up the build?" })
      : { text: `Fusion answered: ${answered}` };
  if (cue.includes(VALIDATE_PROMPT))
    return answered === undefined
      ? call("fusion_validate", VALIDATE_ARGS)
      : { text: "Three reviewers are reading store.ts in the background; I'll read the report when it wakes me." };
  const review = /<task-id>(v[0-9a-f]+)<\/task-id>/.exec(cue);
  if (review === null) return undefined;
  return answered === undefined
    ? call("bg_result", { taskId: review[1] })
    : { text: `${REVIEW_DONE} ${/\*\*Result:\*\* (.*)/.exec(answered)?.[1] ?? "no result line"}` };
}

/** Fusion's children first (told apart by their stage prompts), then the parent's Fusion turns, then `rest`. */
export function withFusion(rest: (input: ResponderInput) => ScriptedReply): (input: ResponderInput) => ScriptedReply {
  const roles = fusionRoleResponder();
  return (input) => roles(input) ?? fusionParent(input) ?? rest(input);
}

function artifactDir(events: readonly PiRecord[], tool: string): string {
  const end = events.find((e) => e.type === "tool_execution_end" && e.toolName === tool);
  const details = (end?.result as { details?: { artifact_dir?: unknown } } | undefined)?.details;
  if (end?.isError || typeof details?.artifact_dir !== "string")
    throw new Error(`${tool} did not run: ${JSON.stringify(end?.result ?? "no tool call")}`);
  return details.artifact_dir;
}

export interface FusionDemoIo {
  readonly pi: PiRpcClient;
  readonly workDir: string;
  readonly say: (line: string) => void;
  /** Prints every pi event not shown yet. */
  readonly flush: () => void;
}

/** Runs the brainstorm and the review, printing each run's children, evaluation and answer after its turn. */
export async function runFusionDemo({ pi, workDir, say, flush }: FusionDemoIo): Promise<void> {
  const showRun = (dir: string) => {
    flush();
    say("");
    for (const line of describeFusionRun(dir, workDir)) say(`  ${line}`);
  };
  say("\nFusion: every child below is a real `pi` process; the scripted model answers each stage's contract.");
  say(`\nuser: ${BRAINSTORM_PROMPT}`);
  showRun(artifactDir(await pi.promptAndWait(BRAINSTORM_PROMPT, RUN_TIMEOUT_MS), "fusion_brainstorm"));
  say(`\nuser: ${VALIDATE_PROMPT}`);
  const review = artifactDir(await pi.promptAndWait(VALIDATE_PROMPT, RUN_TIMEOUT_MS), "fusion_validate");
  const done = (e: PiRecord) => e.type === "message_end" && JSON.stringify(e.message).includes(REVIEW_DONE);
  await pi.waitFor(done, RUN_TIMEOUT_MS);
  await pi.waitFor((e) => e.type === "agent_end", RUN_TIMEOUT_MS, pi.events.findIndex(done));
  showRun(review);
}

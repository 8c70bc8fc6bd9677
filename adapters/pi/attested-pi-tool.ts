import type { ToolDefinition } from "@mariozechner/pi-coding-agent";
import {
  ATTESTED_TOOL_NAME,
  AttestedRunArgumentsSchema,
  normalizeAttestedRunArguments,
} from "../../domain/attested/model/attested-arguments.ts";
import { credentialClassOf, type CredentialClass } from "../../domain/attested/model/credential-class.ts";
import type { AttestedPiRunner } from "../../domain/attested/service/attested-pi-runner.ts";
import { err, ok } from "../../domain/shared/model/result.ts";
import type { TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import { defineTool } from "./define-tool.ts";

export type AttestedAccess = () => AttestedPiRunner;

export function attestedReceipt(task: TaskSnapshot, credential: CredentialClass): string {
  const facts = task.attestedPi;
  return [
    `Started attested Pi run ${task.name} (${task.id})`,
    `Status: ${task.status}${task.error ? ` — ${task.error}` : ""}`,
    `PID: ${task.pid ?? "none"}`,
    `Route: ${facts?.provider ?? "?"}/${facts?.model ?? "?"}${facts?.thinking === undefined ? "" : ` (thinking ${facts.thinking})`}`,
    `Credential class: ${credential.authClass} (channel ${credential.channel})`,
    `Report to write: ${facts?.reportPath ?? "?"}`,
    `Transcript: ${task.outputPath}; raw events: ${facts?.eventsPath ?? "?"}; stderr: ${facts?.stderrPath ?? "?"}`,
    "Terminal notification: disabled for attested runs (no automatic follow-up turn).",
    `On success the attestation sidecar is written last, next to the transcript; check the outcome with bg_status ${task.id} when you need it.`,
  ].join("\n");
}

/** `bg_run_pi_attested`: the credential class is read from the host's model registry before anything starts. */
export function attestedPiTool(runner: AttestedAccess): ToolDefinition {
  return defineTool({
    name: ATTESTED_TOOL_NAME,
    label: "Attested Pi Run",
    description:
      "Run one Pi agent directly (no shell; `pi --mode json` with the prompt on stdin) in the background in a clean Git worktree, and write an attestation sidecar with hashes of the prompt, transcript, raw events, stderr and report when it succeeds. Refuses credentials or mode flags in extraPiArgs, a report path outside the working tree or under .git/ or .pi/, and a dirty worktree.",
    promptSnippet: "Run a hash-attested background Pi agent that must write a report file",
    promptGuidelines: [
      "Use bg_run_pi_attested only when a verifiable record of a Pi run is needed; for ordinary background agents use bg_run with isAgent: true.",
      "bg_run_pi_attested needs a clean Git worktree; the run may change nothing but its reportPath. It sends no completion notification: check with bg_status when you need the result.",
    ],
    parameters: AttestedRunArgumentsSchema,
    normalize: normalizeAttestedRunArguments,
    run: async (args, ctx) => {
      const model = ctx.modelRegistry.find(args.provider, args.model);
      if (model === undefined) {
        return err({
          code: "attested_model_unknown",
          message: `${ATTESTED_TOOL_NAME}: Pi knows no model ${args.provider}/${args.model} (attested_model_unknown). Nothing was started or written.`,
        });
      }
      const credential = credentialClassOf(args.provider, ctx.modelRegistry.isUsingOAuth(model));
      const started = await runner().start(args, credential);
      if (!started.ok) return started;
      return ok({
        content: [{ type: "text" as const, text: attestedReceipt(started.value, credential) }],
        details: { task: started.value, credential },
      });
    },
  });
}

import { err, ok } from "../../shared/model/result.ts";
import { type HostToolSpec, RUNS_ANYTHING, sessionRequired } from "../../shared/service/host-tool-spec.ts";
import type { TaskSnapshot } from "../../tasks/model/task-snapshot.ts";
import {
  ATTESTED_TOOL_NAME,
  AttestedRunArgumentsSchema,
  normalizeAttestedRunArguments,
  type AttestedRunRequest,
} from "../model/attested-arguments.ts";
import { attestedReceipt } from "../model/attested-receipt.ts";
import { credentialClassOf, type CredentialClass } from "../model/credential-class.ts";
import type { AttestedPiRunner } from "./attested-pi-runner.ts";

/**
 * `bg_run_pi_attested`: the credential class is read from the calling session's model registry before
 * anything starts, so the tool needs a host with a session.
 */
export function attestedToolSpec(
  runner: () => Pick<AttestedPiRunner, "start">,
): HostToolSpec<AttestedRunRequest, { task: TaskSnapshot; credential: CredentialClass }> {
  return {
    name: ATTESTED_TOOL_NAME,
    label: "Attested Pi Run",
    effects: RUNS_ANYTHING,
    description:
      "Run one Pi agent directly (no shell; `pi --mode json` with the prompt on stdin) in the background in a clean Git worktree, and write an attestation sidecar with hashes of the prompt, transcript, raw events, stderr and report when it succeeds. Refuses credentials or mode flags in extraPiArgs, a report path outside the working tree or under .git/ or .pi/, and a dirty worktree.",
    promptSnippet: "Run a hash-attested background Pi agent that must write a report file",
    promptGuidelines: [
      "Use bg_run_pi_attested only when a verifiable record of a Pi run is needed; for ordinary background agents use bg_run with isAgent: true.",
      "bg_run_pi_attested needs a clean Git worktree; the run may change nothing but its reportPath. It sends no completion notification: check with bg_status when you need the result.",
    ],
    parameters: AttestedRunArgumentsSchema,
    needsSession: true,
    normalize: normalizeAttestedRunArguments,
    run: async (args, context) => {
      if (context.call === undefined) return err(sessionRequired(ATTESTED_TOOL_NAME));
      const oauth = context.call.session.usesOAuth(args.provider, args.model);
      if (oauth === undefined) {
        return err({
          code: "attested_model_unknown",
          message: `${ATTESTED_TOOL_NAME}: Pi knows no model ${args.provider}/${args.model} (attested_model_unknown). Nothing was started or written.`,
        });
      }
      const credential = credentialClassOf(args.provider, oauth);
      const started = await runner().start(args, credential);
      if (!started.ok) return started;
      return ok({ text: attestedReceipt(started.value, credential), details: { task: started.value, credential } });
    },
  };
}

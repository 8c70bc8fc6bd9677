import { err, type Result } from "../../shared/model/result.ts";
import { delegateError, remedyFor, type DelegateError } from "./delegate-error.ts";
import type { DelegateOutcome } from "./delegate-outcome.ts";
import { verifyResultPackage, type VerificationCode, type VerifiedAnswer } from "./delegate-result-verification.ts";
import type { ResultIdentity } from "./result-package.ts";

/** What the parent pinned when it accepted an answer: the launch the package must name and its two hashes. */
export interface AcceptedPin {
  readonly identity: ResultIdentity;
  readonly answerSha256: string;
  readonly packageSha256: string;
}

/** Where the pin was read from, which decides what a served answer's verification covers. */
export type PinSource = "memory" | "adjudication_record";

export const VERIFICATION_COVERS: Record<PinSource, string> = {
  memory:
    "result.json passed every check (schema, launch binding, route attestations, each block hash) and its package_sha256 and answer sha256 equal the hashes this parent pinned in memory when it accepted the answer.",
  adjudication_record:
    "this parent did not supervise the delegate (it was reloaded, or another Pi process launched it), so the answer was rebuilt from result.json and checked against the hashes pinned in outcome.json, the record the accepting parent committed. That detects corruption and changes after acceptance by anything that did not also rewrite outcome.json; it is not tamper-proof against a process of this user that rewrites both.",
};

/** The pin of a completed outcome: its launch binding and the accepted hashes; undefined when none was accepted. */
export function pinOf(outcome: DelegateOutcome): AcceptedPin | undefined {
  if (!outcome.answer.present) return undefined;
  return {
    identity: {
      taskId: outcome.task_id,
      launchNonce: outcome.launch_nonce,
      seedSha256: outcome.seed_sha256,
      route: outcome.route,
    },
    answerSha256: outcome.answer.sha256,
    packageSha256: outcome.answer.package_sha256,
  };
}

/**
 * `result.json` must still verify on its own and be the very package that was accepted: a consistent package
 * rebuilt later (the nonce is in manifest.json, the hashes are plain SHA-256) differs in its hashes.
 */
export function verifyAcceptedPackage(
  bytes: Uint8Array,
  pin: AcceptedPin,
  where: string,
): Result<VerifiedAnswer, DelegateError<VerificationCode>> {
  const verified = verifyResultPackage(bytes, pin.identity, where);
  if (!verified.ok) return verified;
  const found = verified.value;
  if (found.packageSha256 === pin.packageSha256 && found.sha256 === pin.answerSha256) return verified;
  return err(
    delegateError("answer_hash_mismatch", {
      happened: `the result package ${where} is not the one accepted at adjudication: accepted package_sha256 ${pin.packageSha256} (answer sha256 ${pin.answerSha256}), found package_sha256 ${found.packageSha256} (answer sha256 ${found.sha256}). No byte of its answer is returned.`,
      preserved: `the package is left exactly as found at ${where}.`,
      remedy: remedyFor("answer_hash_mismatch"),
      childCreated: true,
    }),
  );
}

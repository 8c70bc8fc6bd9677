import { canonicalJsonOf, utf8Bytes } from "../../shared/model/canonical-json.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import type {
  FusionValidateArguments,
  NormalizedVerification,
  ValidateRequest,
  VerificationEvidence,
} from "./validate-parameters.ts";

/**
 * Size limits of one request. The request is embedded in all five stage prompts, so it is bounded
 * here, with a message naming the field, rather than discovered later as a budget refusal.
 */
export const VALIDATE_LIMITS = {
  maxListItems: 100,
  maxTextBytes: 16 * 1024,
  maxRequestBytes: 64 * 1024,
} as const;

interface TrimmedVerification {
  readonly status: "provided" | "not_run";
  readonly evidence?: readonly VerificationEvidence[];
  readonly reason?: string;
}

export type TrimmedArguments = Omit<ValidateRequest, "verification"> & { readonly verification: TrimmedVerification };

/** Trims every string; a string that is blank once trimmed is a problem named by its path. */
export function normalizeStrings(args: FusionValidateArguments): Result<TrimmedArguments, string[]> {
  const problems: string[] = [];
  const one = (value: string, path: string): string => {
    const trimmed = value.trim();
    if (trimmed.length === 0) problems.push(`'${path}' must not be empty or whitespace`);
    return trimmed;
  };
  const list = (values: readonly string[] | undefined, path: string): string[] =>
    (values ?? []).map((v, i) => one(v, `${path}.${i}`));
  const v = args.verification;
  const verification: TrimmedVerification = {
    status: v.status,
    ...(v.evidence === undefined
      ? {}
      : {
          evidence: v.evidence.map((e, i) => ({
            check: one(e.check, `verification.evidence.${i}.check`),
            outcome: one(e.outcome, `verification.evidence.${i}.outcome`),
          })),
        }),
    ...(v.reason === undefined ? {} : { reason: one(v.reason, "verification.reason") }),
  };
  const trimmed: TrimmedArguments = {
    objective: one(args.objective, "objective"),
    background: list(args.background, "background"),
    changeSummary: one(args.changeSummary, "changeSummary"),
    scope: list(args.scope, "scope"),
    acceptanceCriteria: list(args.acceptanceCriteria, "acceptanceCriteria"),
    verification,
    knownLimitations: list(args.knownLimitations, "knownLimitations"),
    exclusions: list(args.exclusions, "exclusions"),
  };
  return problems.length === 0 ? ok(trimmed) : err(problems);
}

/** `provided` needs non-empty evidence and no reason; `not_run` needs a reason and no evidence. */
export function checkVerification(v: TrimmedVerification): Result<NormalizedVerification, string[]> {
  const evidence = v.evidence ?? [];
  if (v.status === "provided") {
    const problems: string[] = [];
    if (evidence.length === 0)
      problems.push(
        "'verification.evidence' must list at least one {check, outcome} when status is 'provided'; if nothing was run, use status 'not_run' with a reason",
      );
    if (v.reason !== undefined)
      problems.push(
        "'verification.reason' is only for status 'not_run'; with 'provided', remove reason and put what was run in evidence",
      );
    return problems.length === 0 ? ok({ status: "provided", evidence }) : err(problems);
  }
  const problems: string[] = [];
  if (v.reason === undefined)
    problems.push("'verification.reason' is required when status is 'not_run': say why no checks were run");
  if (evidence.length > 0)
    problems.push(
      "'verification.evidence' must be empty or absent when status is 'not_run'; if checks were run, use status 'provided'",
    );
  return problems.length === 0 && v.reason !== undefined ? ok({ status: "not_run", reason: v.reason }) : err(problems);
}

export function checkSizeLimits(request: ValidateRequest): string[] {
  const problems: string[] = [];
  const lists: Array<[string, readonly unknown[]]> = [
    ["background", request.background],
    ["scope", request.scope],
    ["acceptanceCriteria", request.acceptanceCriteria],
    ["knownLimitations", request.knownLimitations],
    ["exclusions", request.exclusions],
    ["verification.evidence", request.verification.status === "provided" ? request.verification.evidence : []],
  ];
  for (const [path, items] of lists) {
    if (items.length > VALIDATE_LIMITS.maxListItems) {
      problems.push(
        `'${path}' has ${items.length} items; at most ${VALIDATE_LIMITS.maxListItems} are accepted — group related items`,
      );
    }
  }
  for (const [path, value] of stringsOf(request)) {
    const bytes = utf8Bytes(value);
    if (bytes > VALIDATE_LIMITS.maxTextBytes) {
      problems.push(
        `'${path}' is ${bytes} bytes; each text is limited to ${VALIDATE_LIMITS.maxTextBytes} bytes — summarise it, the reviewers read the repository themselves`,
      );
    }
  }
  const total = utf8Bytes(canonicalJsonOf(request));
  if (problems.length === 0 && total > VALIDATE_LIMITS.maxRequestBytes) {
    problems.push(
      `the request is ${total} bytes as canonical JSON; at most ${VALIDATE_LIMITS.maxRequestBytes} are accepted — shorten background and changeSummary`,
    );
  }
  return problems;
}

function stringsOf(request: ValidateRequest): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ["objective", request.objective],
    ["changeSummary", request.changeSummary],
  ];
  const lists = {
    background: request.background,
    scope: request.scope,
    acceptanceCriteria: request.acceptanceCriteria,
    knownLimitations: request.knownLimitations,
    exclusions: request.exclusions,
  };
  for (const [name, items] of Object.entries(lists)) items.forEach((item, i) => out.push([`${name}.${i}`, item]));
  const v = request.verification;
  if (v.status === "not_run") out.push(["verification.reason", v.reason]);
  else
    v.evidence.forEach((e, i) =>
      out.push([`verification.evidence.${i}.check`, e.check], [`verification.evidence.${i}.outcome`, e.outcome]),
    );
  return out;
}

import { Type, type Static } from "typebox";
import { ok, type Result, type TypedError } from "../../shared/model/result.ts";
import { stringEnum } from "../../shared/model/string-enum.ts";
import { checkArguments, type InvalidArguments } from "../../shared/model/tool-arguments.ts";
import { MAX_NAME_CHARS, MAX_TIMEOUT_SECONDS } from "../../tasks/model/run-request.ts";
import { checkExtraPiArgs } from "./extra-pi-args.ts";
import { normalizeReportPath } from "./report-path.ts";

import { ATTESTED_TOOL_NAME } from "./attested-refusal.ts";

export { ATTESTED_TOOL_NAME };
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];
export const MAX_PROMPT_CHARS = 1_000_000;

const nonBlank = (maxLength: number, description: string) => Type.String({ pattern: "\\S", maxLength, description });

export const AttestedRunArgumentsSchema = Type.Object(
  {
    name: nonBlank(MAX_NAME_CHARS, "Short name for the task (2-6 words)"),
    provider: Type.String({
      pattern: "^\\s*[A-Za-z0-9][A-Za-z0-9._-]*\\s*$",
      maxLength: 100,
      description: "Pi provider id, e.g. anthropic or openai-codex",
    }),
    model: Type.String({
      pattern: "^\\s*[^\\s-]\\S*\\s*$",
      maxLength: 200,
      description: "Model id as Pi knows it for that provider",
    }),
    prompt: nonBlank(MAX_PROMPT_CHARS, "The whole prompt; it is sent to the child over stdin and hashed"),
    reportPath: nonBlank(4096, "Relative path (inside the working directory) of the report the run must write"),
    extraPiArgs: Type.Optional(
      Type.Array(Type.String({ maxLength: 4096 }), {
        maxItems: 64,
        description: "Further pi flags (no credentials, no mode or print flags, no prompt words)",
      }),
    ),
    thinking: Type.Optional(stringEnum(THINKING_LEVELS, { description: "Pi thinking level" })),
    timeoutSeconds: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_TIMEOUT_SECONDS,
        description: "Stop the run after this many seconds (floored)",
      }),
    ),
  },
  { additionalProperties: false },
);

export type AttestedRunArguments = Static<typeof AttestedRunArgumentsSchema>;

export interface AttestedRunRequest {
  readonly name: string;
  readonly provider: string;
  readonly model: string;
  /** Exactly as given: these bytes go to stdin and are hashed. */
  readonly prompt: string;
  /** Normalised, relative to cwd, `/`-separated. */
  readonly reportPath: string;
  readonly extraPiArgs: readonly string[];
  readonly thinking?: ThinkingLevel;
  readonly timeoutSeconds?: number;
}

export type AttestedArgumentsError =
  | InvalidArguments
  | TypedError<
      | "attested_pi_argument_refused"
      | "attested_pi_argument_duplicate"
      | "attested_prompt_argument_refused"
      | "attested_report_path_refused"
    >;

const HINTS = {
  provider: "a Pi provider id such as anthropic, openai-codex or a models.json provider",
  model: "a model id of that provider, without spaces",
  reportPath: "a relative path inside the working directory, not under .git/ or .pi/",
  thinking: THINKING_LEVELS.join(", "),
  timeoutSeconds: `a positive number of seconds up to ${MAX_TIMEOUT_SECONDS}, or omit it`,
};

/** Validates and normalises the tool's arguments; every refusal happens here, before anything exists. */
export function normalizeAttestedRunArguments(raw: unknown): Result<AttestedRunRequest, AttestedArgumentsError> {
  const checked = checkArguments<AttestedRunArguments>(ATTESTED_TOOL_NAME, AttestedRunArgumentsSchema, raw, HINTS);
  if (!checked.ok) return checked;
  const args = checked.value;
  const extraPiArgs = args.extraPiArgs ?? [];
  const extra = checkExtraPiArgs(extraPiArgs);
  if (!extra.ok) return extra;
  const reportPath = normalizeReportPath(args.reportPath.trim());
  if (!reportPath.ok) return reportPath;
  return ok({
    name: args.name.trim(),
    provider: args.provider.trim(),
    model: args.model.trim(),
    prompt: args.prompt,
    reportPath: reportPath.value,
    extraPiArgs: [...extraPiArgs],
    ...(args.thinking === undefined ? {} : { thinking: args.thinking }),
    ...(args.timeoutSeconds === undefined ? {} : { timeoutSeconds: Math.max(1, Math.floor(args.timeoutSeconds)) }),
  });
}

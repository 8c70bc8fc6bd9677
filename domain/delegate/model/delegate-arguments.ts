import { Type, type Static } from "typebox";
import { stringEnum } from "../../shared/model/string-enum.ts";
import { checkArguments } from "../../shared/model/tool-arguments.ts";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { admissionError, type DelegateError } from "./delegate-error.ts";
import { DELEGATE_DEFAULT_LIMITS, DELEGATE_LIMIT_BOUNDS, type DelegateLimits } from "./delegate-limits.ts";
import type { RouteRef } from "./delegate-route.ts";

export const DELEGATE_TOOL = "bg_delegate";
export const AUTO_DELIVER = ["never", "when_small", "always"] as const;
export type AutoDeliver = (typeof AUTO_DELIVER)[number];
export const DELEGATE_CAPABILITIES = ["inspect"] as const;
export type DelegateCapability = (typeof DELEGATE_CAPABILITIES)[number];

const NonBlank = (description: string, maxLength?: number) =>
  Type.String({ pattern: "\\S", description, ...(maxLength !== undefined ? { maxLength } : {}) });

const limit = (bounds: { minimum: number; maximum: number }, fallback: number, what: string) =>
  Type.Optional(Type.Integer({ ...bounds, description: `${what} (default ${fallback})` }));

/** The closed public schema of `bg_delegate`. */
export const DelegateArgumentsSchema = Type.Object(
  {
    name: NonBlank("Short label for the task list and footer", 120),
    prompt: NonBlank("The self-contained task for the delegate; kept verbatim"),
    route: Type.Optional(
      Type.Object(
        { provider: NonBlank("Provider id, e.g. anthropic"), model: NonBlank("Model id as the provider names it") },
        { additionalProperties: false, description: "Pin another route than the current model; never substituted" },
      ),
    ),
    capability: Type.Optional(
      stringEnum(DELEGATE_CAPABILITIES, { description: 'Only "inspect": read, grep, find, ls' }),
    ),
    maxTurns: limit(DELEGATE_LIMIT_BOUNDS.maxTurns, DELEGATE_DEFAULT_LIMITS.maxTurns, "Model calls the child may make"),
    maxToolCalls: limit(
      DELEGATE_LIMIT_BOUNDS.maxToolCalls,
      DELEGATE_DEFAULT_LIMITS.maxToolCalls,
      "Tool calls the child may make",
    ),
    timeoutSeconds: limit(
      DELEGATE_LIMIT_BOUNDS.timeoutSeconds,
      DELEGATE_DEFAULT_LIMITS.timeoutSeconds,
      "Wall-clock limit in seconds",
    ),
    autoDeliver: Type.Optional(
      stringEnum(AUTO_DELIVER, {
        description: "Recorded with the task; the answer is fetched with bg_result (default never)",
      }),
    ),
    notifyOnCompletion: Type.Optional(Type.Boolean({ description: "Post a completion notice (default true)" })),
    triggerOnCompletion: Type.Optional(Type.Boolean({ description: "Let the notice start a turn (default true)" })),
  },
  { additionalProperties: false },
);

export type RawDelegateArguments = Static<typeof DelegateArgumentsSchema>;

/** Arguments after checking and normalisation: every default filled in, labels trimmed, the prompt untouched. */
export interface DelegateArguments {
  readonly name: string;
  readonly prompt: string;
  readonly route: RouteRef | undefined;
  readonly capability: DelegateCapability;
  readonly limits: DelegateLimits;
  readonly autoDeliver: AutoDeliver;
  readonly notifyOnCompletion: boolean;
  readonly triggerOnCompletion: boolean;
}

const HINTS = {
  name: 'a short label such as "audit auth flow"',
  prompt: "state the whole task; facts only in omitted tool output must be restated here",
  capability: 'only "inspect" exists; leave it out',
};

export function parseDelegateArguments(raw: unknown): Result<DelegateArguments, DelegateError<"invalid_arguments">> {
  const checked = checkArguments<RawDelegateArguments>(DELEGATE_TOOL, DelegateArgumentsSchema, raw, HINTS);
  if (!checked.ok) {
    return err(
      admissionError(
        "invalid_arguments",
        checked.error.message,
        "fix the listed arguments and call bg_delegate again.",
        checked.error.problems,
      ),
    );
  }
  const a = checked.value;
  return ok({
    name: a.name.trim(),
    prompt: a.prompt,
    route: a.route === undefined ? undefined : { provider: a.route.provider.trim(), model: a.route.model.trim() },
    capability: a.capability ?? "inspect",
    limits: {
      maxTurns: a.maxTurns ?? DELEGATE_DEFAULT_LIMITS.maxTurns,
      maxToolCalls: a.maxToolCalls ?? DELEGATE_DEFAULT_LIMITS.maxToolCalls,
      timeoutSeconds: a.timeoutSeconds ?? DELEGATE_DEFAULT_LIMITS.timeoutSeconds,
    },
    autoDeliver: a.autoDeliver ?? "never",
    notifyOnCompletion: a.notifyOnCompletion ?? true,
    triggerOnCompletion: a.triggerOnCompletion ?? true,
  });
}

import { Type, type Static } from "typebox";
import { ok, type Result } from "../../shared/model/result.ts";
import { stringEnum } from "../../shared/model/string-enum.ts";
import { checkArguments, type InvalidArguments } from "../../shared/model/tool-arguments.ts";
import { FUSION_CAPABILITIES, type FusionCapability } from "./fusion-workflow.ts";

export const MAX_FUSION_PROMPT_CHARS = 200_000;

export const BrainstormArgumentsSchema = Type.Object(
  {
    prompt: Type.String({
      pattern: "\\S",
      maxLength: MAX_FUSION_PROMPT_CHARS,
      description: "The self-contained question or task for three independent models",
    }),
    capability: Type.Optional(
      stringEnum(FUSION_CAPABILITIES, {
        description:
          "reason (default): no tools; inspect: read-only repository tools; research: inspect plus fusion_web_fetch for public URLs",
      }),
    ),
  },
  { additionalProperties: false },
);

export interface BrainstormRequest {
  readonly prompt: string;
  readonly capability: FusionCapability;
}

const HINTS = {
  prompt:
    "fusion_brainstorm arguments must contain prompt and optional capability only; prompt is the full, self-contained request",
  capability: `one of ${FUSION_CAPABILITIES.join(", ")}`,
};

/** The prompt is kept byte for byte (the seeds call the request text authoritative); only a blank one is refused. */
export function normalizeBrainstormArguments(raw: unknown): Result<BrainstormRequest, InvalidArguments> {
  const checked = checkArguments<Static<typeof BrainstormArgumentsSchema>>(
    "fusion_brainstorm",
    BrainstormArgumentsSchema,
    raw,
    HINTS,
  );
  if (!checked.ok) return checked;
  return ok({ prompt: checked.value.prompt, capability: checked.value.capability ?? "reason" });
}

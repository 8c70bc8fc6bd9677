import { Type, type Static } from "typebox";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { stringEnum } from "../../shared/model/string-enum.ts";
import { checkArguments, invalidArguments, type InvalidArguments } from "../../shared/model/tool-arguments.ts";
import type { ResultDelivery } from "../../shared/model/result-delivery.ts";

export const BG_RESULT_TOOL = "bg_result";

/** The closed public schema of `bg_result`. */
export const BgResultParameters = Type.Object(
  {
    taskId: Type.String({
      minLength: 1,
      description: "The task id from the launch receipt or the completion notification.",
    }),
    delivery: Type.Optional(
      stringEnum(["inline", "artifact"] as const, {
        description:
          "Default: inline up to 48 KiB, otherwise an artifact reference. 'inline' for a larger answer is refused, never truncated.",
      }),
    ),
  },
  { additionalProperties: false },
);

export type BgResultArguments = Static<typeof BgResultParameters>;

export interface BgResultQuery {
  readonly taskId: string;
  readonly delivery?: ResultDelivery;
}

export function normalizeBgResultArguments(raw: unknown): Result<BgResultQuery, InvalidArguments> {
  const checked = checkArguments<BgResultArguments>(BG_RESULT_TOOL, BgResultParameters, raw);
  if (!checked.ok) return checked;
  const taskId = checked.value.taskId.trim();
  if (taskId.length === 0) return err(invalidArguments(BG_RESULT_TOOL, ["'taskId' must not be empty or whitespace"]));
  return ok({ taskId, ...(checked.value.delivery === undefined ? {} : { delivery: checked.value.delivery }) });
}

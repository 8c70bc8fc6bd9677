import { Type, type Static } from "typebox";
import { checkArguments, type InvalidArguments } from "../../shared/model/tool-arguments.ts";
import { ok, type Result } from "../../shared/model/result.ts";
import { LOG_READ_MAX_BYTES, type LogReadRequest } from "./log-read.ts";

const taskId = Type.String({ pattern: "\\S", maxLength: 200, description: "Task id (or an unambiguous prefix)" });

export const StatusArgumentsSchema = Type.Object({ taskId: Type.Optional(taskId) }, { additionalProperties: false });
export const KillArgumentsSchema = Type.Object({ taskId }, { additionalProperties: false });
export const LogsArgumentsSchema = Type.Object(
  {
    taskId,
    maxBytes: Type.Optional(
      Type.Number({
        minimum: 1,
        description: `Bytes to return (default and maximum ${LOG_READ_MAX_BYTES}; at least 4); slices end on character boundaries`,
      }),
    ),
    tail: Type.Optional(Type.Boolean({ description: "Read the end (default true) or the start (false)" })),
    offset: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: "Read from this byte offset (delta reads: pass the previous nextOffset)",
      }),
    ),
    encoding: Type.Optional(
      Type.Union([Type.Literal("utf8"), Type.Literal("base64")], {
        description:
          "utf8 (default): text on character boundaries; base64: the exact bytes, for output that is not text",
      }),
    ),
  },
  { additionalProperties: false },
);

const HINTS = { taskId: "pass a task id from bg_run or bg_status" };

export function normalizeStatusArguments(raw: unknown): Result<{ taskId?: string }, InvalidArguments> {
  const checked = checkArguments<Static<typeof StatusArgumentsSchema>>(
    "bg_status",
    StatusArgumentsSchema,
    raw ?? {},
    HINTS,
  );
  return checked.ok ? ok(checked.value.taskId === undefined ? {} : { taskId: checked.value.taskId.trim() }) : checked;
}

export function normalizeKillArguments(raw: unknown): Result<{ taskId: string }, InvalidArguments> {
  const checked = checkArguments<Static<typeof KillArgumentsSchema>>("bg_kill", KillArgumentsSchema, raw, HINTS);
  return checked.ok ? ok({ taskId: checked.value.taskId.trim() }) : checked;
}

export function normalizeLogsArguments(raw: unknown): Result<{ taskId: string } & LogReadRequest, InvalidArguments> {
  const checked = checkArguments<Static<typeof LogsArgumentsSchema>>("bg_logs", LogsArgumentsSchema, raw, {
    ...HINTS,
    maxBytes: `a positive number; values above ${LOG_READ_MAX_BYTES} are reduced to ${LOG_READ_MAX_BYTES}, below 4 raised to 4`,
  });
  if (!checked.ok) return checked;
  const { taskId: id, maxBytes, tail, offset, encoding } = checked.value;
  return ok({
    taskId: id.trim(),
    // At least one whole character (UTF-8 needs up to 4 bytes), so a slice can always end on a boundary.
    maxBytes: Math.max(4, Math.min(LOG_READ_MAX_BYTES, Math.floor(maxBytes ?? LOG_READ_MAX_BYTES))),
    tail: tail ?? true,
    ...(offset === undefined ? {} : { offset }),
    ...(encoding === "base64" ? { encoding } : {}),
  });
}

export const MAX_WAIT_SECONDS = 600;
export const DEFAULT_WAIT_SECONDS = 30;

export const WaitArgumentsSchema = Type.Object(
  {
    taskId,
    timeoutSeconds: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_WAIT_SECONDS,
        description: `Longest time to block, in seconds (default ${DEFAULT_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS})`,
      }),
    ),
  },
  { additionalProperties: false },
);

export interface WaitRequest {
  readonly taskId: string;
  readonly timeoutSeconds: number;
}

export function normalizeWaitArguments(raw: unknown): Result<WaitRequest, InvalidArguments> {
  const checked = checkArguments<Static<typeof WaitArgumentsSchema>>("bg_wait", WaitArgumentsSchema, raw, {
    ...HINTS,
    timeoutSeconds: `a positive number of seconds up to ${MAX_WAIT_SECONDS}; call bg_wait again to wait longer`,
  });
  return checked.ok
    ? ok({ taskId: checked.value.taskId.trim(), timeoutSeconds: checked.value.timeoutSeconds ?? DEFAULT_WAIT_SECONDS })
    : checked;
}

import { Type, type Static } from "typebox";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import { stringEnum } from "../../shared/model/string-enum.ts";
import { checkArguments } from "../../shared/model/tool-arguments.ts";
import type { LogReadRequest } from "./log-read.ts";
import { normalizeKillArguments, normalizeLogsArguments, normalizeStatusArguments } from "./query-arguments.ts";
import { normalizeRunArguments, type RunRequest } from "./run-request.ts";
import type { TaskSnapshot } from "./task-snapshot.ts";

/** The versioned EventBus contract other extensions use to run and watch background tasks. */
export const BUS_API_VERSION = 1;

export const BUS_CHANNELS = {
  request: "pi-background-tasks:request:v1",
  response: "pi-background-tasks:response:v1",
  terminal: "pi-background-tasks:terminal:v1",
} as const;

export const BUS_SCHEMA_IDS = {
  request: "pi-background-tasks.extension-request.v1",
  response: "pi-background-tasks.extension-response.v1",
  terminal: "pi-background-tasks.extension-terminal.v1",
} as const;

export const BUS_OPERATIONS = ["capabilities", "run", "status", "logs", "kill"] as const;
export type BusOperation = (typeof BUS_OPERATIONS)[number];

export const MAX_REQUEST_ID_CHARS = 256;

const operationSchema = stringEnum(BUS_OPERATIONS);

export const RequestFrameSchema = Type.Object(
  {
    schema_version: Type.Literal(BUS_SCHEMA_IDS.request),
    request_id: Type.String({ pattern: "\\S", maxLength: MAX_REQUEST_ID_CHARS }),
    operation: operationSchema,
    payload: Type.Unknown(),
  },
  { additionalProperties: false },
);
export type RequestFrame = Static<typeof RequestFrameSchema>;

const CapabilitiesPayloadSchema = Type.Object({}, { additionalProperties: false });

const ErrorSchema = Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false });

export const ResponseFrameSchema = Type.Union([
  Type.Object(
    {
      schema_version: Type.Literal(BUS_SCHEMA_IDS.response),
      request_id: Type.String(),
      operation: operationSchema,
      ok: Type.Literal(true),
      result: Type.Unknown(),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      schema_version: Type.Literal(BUS_SCHEMA_IDS.response),
      request_id: Type.Union([Type.String(), Type.Null()]),
      operation: Type.Union([operationSchema, Type.Null()]),
      ok: Type.Literal(false),
      error: ErrorSchema,
    },
    { additionalProperties: false },
  ),
]);
export type ResponseFrame = Static<typeof ResponseFrameSchema>;

export const TerminalFrameSchema = Type.Object(
  {
    schema_version: Type.Literal(BUS_SCHEMA_IDS.terminal),
    task: Type.Object(
      { id: Type.String(), status: stringEnum(["completed", "failed", "killed"] as const) },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: false },
);
export interface TerminalFrame {
  readonly schema_version: typeof BUS_SCHEMA_IDS.terminal;
  readonly task: TaskSnapshot;
}

export const CAPABILITIES = {
  api_version: BUS_API_VERSION,
  run: true,
  run_is_agent: true,
  run_completion_trigger: true,
  status: true,
  logs: true,
  logs_bounded: true,
  kill: true,
} as const;

interface RequestBase {
  readonly requestId: string;
}
export type BusRequest =
  | (RequestBase & { readonly operation: "capabilities" })
  | (RequestBase & { readonly operation: "run"; readonly run: RunRequest })
  | (RequestBase & { readonly operation: "status"; readonly taskId?: string })
  | (RequestBase & { readonly operation: "logs"; readonly taskId: string; readonly read: LogReadRequest })
  | (RequestBase & { readonly operation: "kill"; readonly taskId: string });

export type BusRejectionCode =
  | "frame_invalid"
  | "payload_invalid"
  | "duplicate_request_id"
  | "session_not_started"
  | "session_shutting_down";

/** Why a frame was refused, with whatever identity could be read from it for the `ok:false` answer. */
export interface BusRejection extends TypedError<BusRejectionCode> {
  readonly requestId: string | null;
  readonly operation: BusOperation | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The request id and operation of a frame, as far as they are well formed (for answering a bad frame). */
export function frameIdentity(raw: unknown): { requestId: string | null; operation: BusOperation | null } {
  if (!isRecord(raw)) return { requestId: null, operation: null };
  const id = raw.request_id;
  const op = raw.operation;
  return {
    requestId: typeof id === "string" && /\S/.test(id) && id.length <= MAX_REQUEST_ID_CHARS ? id : null,
    operation:
      typeof op === "string" && (BUS_OPERATIONS as readonly string[]).includes(op) ? (op as BusOperation) : null,
  };
}

/** Strictly validates one request frame and its operation's payload. Nothing is coerced. */
export function parseRequestFrame(raw: unknown): Result<BusRequest, BusRejection> {
  const identity = frameIdentity(raw);
  const reject = (code: BusRejectionCode, message: string) =>
    err({ code, message: `${message} (${code})`, ...identity });
  const envelope = checkArguments<RequestFrame>("request frame", RequestFrameSchema, raw);
  if (!envelope.ok)
    return reject("frame_invalid", `Malformed ${BUS_SCHEMA_IDS.request} frame: ${envelope.error.problems.join("; ")}`);
  const { request_id: requestId, operation, payload } = envelope.value;
  if (!isRecord(payload)) return reject("payload_invalid", `The '${operation}' payload must be a JSON object`);
  const parsed = parsePayload(requestId, operation as BusOperation, payload);
  if (!parsed.ok) return reject("payload_invalid", `Invalid '${operation}' payload: ${parsed.error.join("; ")}`);
  return parsed;
}

function parsePayload(
  requestId: string,
  operation: BusOperation,
  payload: Record<string, unknown>,
): Result<BusRequest, readonly string[]> {
  switch (operation) {
    case "capabilities": {
      const checked = checkArguments("capabilities", CapabilitiesPayloadSchema, payload);
      return checked.ok ? ok({ requestId, operation }) : err(checked.error.problems);
    }
    case "run": {
      const run = normalizeRunArguments(payload);
      return run.ok ? ok({ requestId, operation, run: run.value }) : err(run.error.problems);
    }
    case "status": {
      const status = normalizeStatusArguments(payload);
      return status.ok ? ok({ requestId, operation, ...status.value }) : err(status.error.problems);
    }
    case "logs": {
      const logs = normalizeLogsArguments(payload);
      if (!logs.ok) return err(logs.error.problems);
      const { taskId, ...read } = logs.value;
      return ok({ requestId, operation, taskId, read });
    }
    case "kill": {
      const kill = normalizeKillArguments(payload);
      return kill.ok ? ok({ requestId, operation, taskId: kill.value.taskId }) : err(kill.error.problems);
    }
  }
}

export function okResponse(requestId: string, operation: BusOperation, result: unknown): ResponseFrame {
  return { schema_version: BUS_SCHEMA_IDS.response, request_id: requestId, operation, ok: true, result };
}

export function errorResponse(
  requestId: string | null,
  operation: BusOperation | null,
  error: TypedError,
): ResponseFrame {
  return {
    schema_version: BUS_SCHEMA_IDS.response,
    request_id: requestId,
    operation,
    ok: false,
    error: { code: error.code, message: error.message },
  };
}

export function terminalFrame(task: TaskSnapshot): TerminalFrame {
  return { schema_version: BUS_SCHEMA_IDS.terminal, task };
}

/**
 * Remembers accepted request ids so a replayed id is refused. Memory is bounded: beyond `capacity`
 * the oldest ids are forgotten (a replay that old is accepted again).
 */
export class RequestIdLedger {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity = 65_536) {}

  /** True when the id is new (and records it); false for a duplicate. */
  accept(requestId: string): boolean {
    if (this.ids.has(requestId)) return false;
    this.ids.add(requestId);
    if (this.ids.size > this.capacity) {
      const oldest = this.ids.values().next();
      if (oldest.done !== true) this.ids.delete(oldest.value);
    }
    return true;
  }
}

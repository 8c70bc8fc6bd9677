import { Type } from "typebox";
import { Value } from "typebox/value";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";

export const EXIT_RECORD_SCHEMA = "pi-background-tasks.exit.v1";
/** An exit record is about 200 bytes; anything larger is not one. */
export const MAX_EXIT_RECORD_BYTES = 64 * 1024;

const count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** `<taskDir>/<id>.exit.json`: created empty by the task supervisor before the command starts, written once it has ended. */
export const ExitRecordSchema = Type.Object(
  {
    schema_version: Type.Literal(EXIT_RECORD_SCHEMA),
    code: Type.Union([Type.Integer(), Type.Null()]),
    signal: Type.Union([Type.String({ maxLength: 32 }), Type.Null()]),
    endedAt: Type.Number(),
    /** The host's pipes broke before the command ended (the host died or let go of the task). */
    hostGone: Type.Boolean(),
    /** Output appended to the spill file after the host was gone. */
    spilledBytes: count,
    /** Output after the host was gone that the spill file had no room for (or could not store). */
    lostOutputBytes: count,
    /** Present when processes of the task outlived the command: how many, which were stopped, when the last ended. */
    tree: Type.Optional(
      Type.Object(
        {
          descendants: count,
          stopped: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 4096 }),
          lastEndedAt: Type.Number(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** What the processes that outlived the command did. */
export interface TreeRecord {
  readonly descendants: number;
  /** Pids the shell-exit policy had to stop (empty: every one ended by itself). */
  readonly stopped: readonly number[];
  readonly lastEndedAt: number;
}

export interface ExitRecord {
  readonly schema_version: typeof EXIT_RECORD_SCHEMA;
  readonly code: number | null;
  readonly signal: string | null;
  readonly endedAt: number;
  readonly hostGone: boolean;
  readonly spilledBytes: number;
  readonly lostOutputBytes: number;
  readonly tree?: TreeRecord;
}

export type ExitRecordError = TypedError<"exit_record_invalid">;

/** Reads an exit record back; a damaged one is a typed error naming what was wrong, never an exception. */
export function parseExitRecord(bytes: Uint8Array): Result<ExitRecord, ExitRecordError> {
  if (bytes.length > MAX_EXIT_RECORD_BYTES)
    return invalid(`it is ${bytes.length} bytes, more than an exit record can be`);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    return invalid(`it is not complete UTF-8 JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Value.Check(ExitRecordSchema, value)) {
    const problems = [...Value.Errors(ExitRecordSchema, value)]
      .slice(0, 4)
      .map((e) => `${e.instancePath || "/"} ${e.message}`);
    return invalid(`it does not match ${EXIT_RECORD_SCHEMA}: ${problems.join("; ")}`);
  }
  if (value.code === null && value.signal === null) return invalid("it names neither an exit code nor a signal");
  return ok(value);
}

function invalid(why: string): Result<never, ExitRecordError> {
  return err({ code: "exit_record_invalid", message: `the task's exit record is unusable: ${why}` });
}

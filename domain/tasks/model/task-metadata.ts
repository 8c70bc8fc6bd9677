import { type Static, type TSchema, Type } from "typebox";
import { Value } from "typebox/value";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";
import type { TaskSnapshot } from "./task-snapshot.ts";

/** A metadata file is a few KiB; anything this large is not one of ours. */
export const MAX_TASK_METADATA_BYTES = 1024 * 1024;

export type TaskMetadataError = TypedError<
  "metadata_oversized" | "metadata_not_utf8" | "metadata_malformed" | "metadata_invalid"
> & {
  readonly problems?: readonly string[];
};

const closed = <T extends Record<string, TSchema>>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });
const count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const text = (maxLength: number) => Type.String({ maxLength });
const orUnavailable = Type.Union([Type.Number(), Type.Literal("unavailable")]);
const literals = <const T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));

const OutputAccountingSchema = closed({
  producedBytes: count,
  keptBytes: count,
  elidedBytes: count,
  capBytes: count,
  capAction: literals(["keep_head_and_tail", "kill"] as const),
  unwrittenBytes: Type.Optional(count),
});

const AttestedPiSchema = closed({
  provider: text(200),
  model: text(200),
  thinking: Type.Optional(text(100)),
  authClass: text(100),
  reportPath: text(4096),
  eventsPath: text(4096),
  stderrPath: text(4096),
  promptSha256: text(64),
  sessionId: Type.Optional(text(200)),
  finalStopReason: Type.Optional(text(200)),
});

/** The on-disk form of a TaskSnapshot (`pi-background-tasks.task.v1`), checked field by field. */
export const TaskMetadataSchema = closed({
  schema_version: Type.Literal("pi-background-tasks.task.v1"),
  id: Type.String({ minLength: 1, maxLength: 128 }),
  name: text(1000),
  command: text(200_000),
  description: Type.Optional(text(10_000)),
  status: literals(["running", "completed", "failed", "killed"] as const),
  outputPath: text(4096),
  cwd: text(4096),
  startTime: Type.Number(),
  endTime: Type.Optional(Type.Number()),
  exitCode: Type.Optional(Type.Integer()),
  signal: Type.Optional(text(32)),
  pid: Type.Optional(Type.Integer({ minimum: 1 })),
  bytesWritten: count,
  output: OutputAccountingSchema,
  isAgent: Type.Boolean(),
  error: Type.Optional(text(100_000)),
  killKind: Type.Optional(literals(["user", "timeout", "output_cap", "shutdown"] as const)),
  notified: Type.Boolean(),
  notifyOnCompletion: Type.Boolean(),
  triggerOnCompletion: Type.Boolean(),
  timeoutSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  strays: Type.Optional(count),
  onShellExit: Type.Optional(Type.Literal("wait")),
  shellExit: Type.Optional(
    closed({
      code: Type.Union([Type.Integer(), Type.Null()]),
      signal: Type.Union([text(32), Type.Null()]),
      at: Type.Number(),
    }),
  ),
  remaining: Type.Optional(
    Type.Array(
      closed({
        pid: Type.Integer({ minimum: 1 }),
        command: text(10_000),
        startedAt: Type.Optional(Type.Number()),
      }),
      { maxItems: 4096 },
    ),
  ),
  descendants: Type.Optional(count),
  attestedPi: Type.Optional(AttestedPiSchema),
  attestationPath: Type.Optional(text(4096)),
  contextUsage: Type.Optional(closed({ tokens: orUnavailable, contextWindow: orUnavailable, percent: orUnavailable })),
  tokenUsage: Type.Optional(
    closed({
      input: orUnavailable,
      output: orUnavailable,
      cacheRead: orUnavailable,
      cacheWrite: orUnavailable,
      totalTokens: orUnavailable,
      costTotal: orUnavailable,
    }),
  ),
  toolUsage: Type.Optional(closed({ total: count, failed: count, byName: Type.Record(Type.String(), count) })),
  model: Type.Optional(text(1000)),
  telemetryUnavailableReason: Type.Optional(text(10_000)),
  fusion: Type.Optional(
    closed({
      runId: text(200),
      workflow: literals(["validate", "brainstorm"] as const),
      artifactDir: text(4096),
      resultSha256: Type.Optional(text(64)),
    }),
  ),
  delegate: Type.Optional(closed({ artifactDir: text(4096), route: text(10_000), childSessionId: text(200) })),
  hostPid: Type.Optional(Type.Integer({ minimum: 1 })),
  hostStartedAt: Type.Optional(text(200)),
  processTag: Type.Optional(Type.String({ pattern: "^[0-9a-f]{32}$" })),
  surviveReload: Type.Optional(Type.Boolean()),
  detachedAt: Type.Optional(Type.Number()),
  detachedInOrder: Type.Optional(Type.Literal(true)),
  container: Type.Optional(
    closed({
      runOn: literals(["docker", "swarm"] as const),
      image: text(255),
      imageId: text(200),
      engine: text(4096),
      tree: literals(["bind", "copy"] as const),
      network: Type.Optional(Type.Boolean()),
    }),
  ),
  recovery: Type.Optional(
    closed({
      at: Type.Number(),
      hostEnded: literals(["died", "detached"] as const),
      spillPath: text(4096),
      spilledBytes: count,
      lostOutputBytes: Type.Union([count, Type.Literal("unavailable")]),
    }),
  ),
});

// Every value the schema accepts is a TaskSnapshot (a compile-time check).
type Accepted = Static<typeof TaskMetadataSchema>;
const acceptedIsSnapshot = (value: Accepted): TaskSnapshot => value;
void acceptedIsSnapshot;

const MAX_PROBLEMS = 8;

/**
 * Reads a task metadata file back: size, UTF-8, JSON and schema are each checked, and every
 * failure is a typed error naming what was wrong, never an exception.
 */
export function parseTaskMetadata(bytes: Uint8Array): Result<TaskSnapshot, TaskMetadataError> {
  if (bytes.length > MAX_TASK_METADATA_BYTES) {
    return err({
      code: "metadata_oversized",
      message: `task metadata is ${bytes.length} bytes, more than the ${MAX_TASK_METADATA_BYTES} a metadata file can be`,
    });
  }
  let source: string;
  try {
    source = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return err({ code: "metadata_not_utf8", message: "task metadata is not valid UTF-8 (corrupted file?)" });
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return err({
      code: "metadata_malformed",
      message: `task metadata is not complete JSON (truncated or corrupted): ${detail}`,
    });
  }
  if (Value.Check(TaskMetadataSchema, value)) return ok(value);
  const problems = [...Value.Errors(TaskMetadataSchema, value)]
    .slice(0, MAX_PROBLEMS)
    .map((e) => `${e.instancePath || "/"} ${e.message}`);
  return err({
    code: "metadata_invalid",
    message: `task metadata does not match ${"pi-background-tasks.task.v1"}: ${problems.join("; ")}`,
    problems,
  });
}

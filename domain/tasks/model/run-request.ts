import { type Static, Type } from "typebox";
import { err, ok, type Result } from "../../shared/model/result.ts";
import { stringEnum } from "../../shared/model/string-enum.ts";
import { checkArguments, type InvalidArguments, invalidArguments } from "../../shared/model/tool-arguments.ts";
import type { OutputCapAction } from "./task-snapshot.ts";

export const MAX_COMMAND_BYTES = 100_000;
export const MAX_NAME_CHARS = 80;
export const MAX_TIMEOUT_SECONDS = 7 * 24 * 3600;
/** An image reference as engines accept it (name, tag, digest): no spaces, no leading dash. */
const IMAGE_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._/:@-]*$";

/** Where a task runs other than on the host: one container on a Docker engine, or a Swarm job. */
export type ContainerRunOn = "docker" | "swarm";

export interface ContainerPlacement {
  readonly runOn: ContainerRunOn;
  /** An image the engine already holds (never pulled); absent: the image your container config names. */
  readonly image?: string;
}

const nonBlank = (maxLength: number, description: string) => Type.String({ pattern: "\\S", maxLength, description });

export const RunArgumentsSchema = Type.Object(
  {
    name: Type.Optional(nonBlank(MAX_NAME_CHARS, "Short name for the task (2-6 words), shown in the task list")),
    command: nonBlank(MAX_COMMAND_BYTES, "Shell command to run in the background"),
    isAgent: Type.Boolean({
      description:
        "true only when the command launches an LLM/agent process (e.g. `pi -p ...`); false for scripts, tests, servers, builds, sleeps",
    }),
    description: Type.Optional(Type.String({ maxLength: 2000, description: "What the task does and why" })),
    timeoutSeconds: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: MAX_TIMEOUT_SECONDS,
        description: "Stop the task after this many seconds (floored). Omit for no timeout",
      }),
    ),
    notifyOnCompletion: Type.Optional(Type.Boolean({ description: "Send a completion notification (default true)" })),
    triggerOnCompletion: Type.Optional(
      Type.Boolean({ description: "Let the notification start a new agent turn (default true)" }),
    ),
    onOutputCap: Type.Optional(
      stringEnum(["keep_head_and_tail", "kill"] as const, {
        description: "At the output cap: keep the head and a rolling tail (default) or kill the task",
      }),
    ),
    onShellExit: Type.Optional(
      stringEnum(["stop", "wait"] as const, {
        description:
          "When the shell exits while processes it started still run (`server &`): stop them after a short grace (default), or wait: the task lasts until the last one ends (bounded by timeoutSeconds)",
      }),
    ),
    runOn: Type.Optional(
      stringEnum(["host", "docker", "swarm"] as const, {
        description:
          'Where the command runs: on this machine (default "host"), in a container on the local Docker engine ("docker"), or as a Docker Swarm job ("swarm"); a container gets no network and none of your environment, and runs `image` (or the one your container config names)',
      }),
    ),
    image: Type.Optional(
      Type.String({
        pattern: IMAGE_PATTERN,
        maxLength: 255,
        description:
          "The image a docker or swarm task runs, already on the engine (never pulled): e.g. `node:22`, `myproject-test:latest`",
      }),
    ),
    surviveReload: Type.Optional(
      Type.Boolean({
        description:
          "Keep the task running across /reload and Pi restarts; the next session reattaches it (default false; only for isAgent: false shell commands such as dev servers)",
      }),
    ),
  },
  { additionalProperties: false },
);

export type RunArguments = Static<typeof RunArgumentsSchema>;

export interface RunRequest {
  readonly name: string;
  readonly command: string;
  readonly isAgent: boolean;
  readonly description?: string;
  readonly timeoutSeconds?: number;
  readonly notifyOnCompletion: boolean;
  readonly triggerOnCompletion: boolean;
  readonly onOutputCap: OutputCapAction;
  /** Present only for `wait`: the task lasts as long as its last process. */
  readonly onShellExit?: "wait";
  /** Opt-in survival of session shutdown and reload; present only when true. */
  readonly surviveReload?: true;
  /** Present when the task runs in a container instead of on the host (see `containerPlacement`). */
  readonly runOn?: ContainerRunOn;
  readonly image?: string;
}

/** Where a request runs when not on the host. */
export function containerPlacement(request: RunRequest): ContainerPlacement | undefined {
  if (request.runOn === undefined) return undefined;
  return request.image === undefined ? { runOn: request.runOn } : { runOn: request.runOn, image: request.image };
}

const HINTS = {
  isAgent:
    "set isAgent: true only when the command launches an LLM/agent process such as `pi -p ...` or `pi --mode json ...`; set false for scripts, tests, builds, dev servers and sleeps",
  command: "pass the shell command to run as a non-empty string",
  timeoutSeconds: `a positive number of seconds up to ${MAX_TIMEOUT_SECONDS}, or omit it for no timeout`,
  name: `a short label of at most ${MAX_NAME_CHARS} characters, or omit it to derive one from the command`,
  onOutputCap: `"keep_head_and_tail" or "kill"`,
  onShellExit: `"stop" (default) or "wait"`,
  runOn: `"host" (default), "docker" or "swarm"`,
  image: "an image name such as `node:22` or `myproject:latest` (letters, digits and . _ / : @ -)",
  surviveReload: "true to keep a shell task (isAgent: false) running across /reload and restarts, or omit it",
};

/** Validates and normalises bg_run arguments. Idempotent: normalised output validates again. */
export function normalizeRunArguments(raw: unknown): Result<RunRequest, InvalidArguments> {
  const checked = checkArguments<RunArguments>("bg_run", RunArgumentsSchema, raw, HINTS);
  if (!checked.ok) return checked;
  const args = checked.value;
  const command = args.command.trim();
  if (Buffer.byteLength(command, "utf8") > MAX_COMMAND_BYTES) {
    return err(
      invalidArguments("bg_run", [
        `'command' is longer than ${MAX_COMMAND_BYTES} bytes — write a script file and run that instead`,
      ]),
    );
  }
  if (args.surviveReload === true && args.isAgent) {
    return err(
      invalidArguments("bg_run", [
        "'surviveReload' is only for shell tasks (isAgent: false): an agent run cannot be reattached with its telemetry, so leave surviveReload out or set isAgent: false",
      ]),
    );
  }
  const placement = placementOf(args);
  if (!placement.ok) return placement;
  const description = args.description?.trim() || undefined;
  const name = args.name?.trim() || deriveTaskName(command, description);
  return ok({
    name,
    command,
    isAgent: args.isAgent,
    ...(description === undefined ? {} : { description }),
    ...(args.timeoutSeconds === undefined ? {} : { timeoutSeconds: Math.max(1, Math.floor(args.timeoutSeconds)) }),
    notifyOnCompletion: args.notifyOnCompletion ?? true,
    triggerOnCompletion: args.triggerOnCompletion ?? true,
    onOutputCap: args.onOutputCap ?? "keep_head_and_tail",
    ...(args.onShellExit === "wait" ? { onShellExit: "wait" as const } : {}),
    ...(args.surviveReload === true ? { surviveReload: true as const } : {}),
    ...placement.value,
  });
}

/** Where the task runs, with the rules a container task must keep. */
function placementOf(args: RunArguments): Result<ContainerPlacement | undefined, InvalidArguments> {
  const runOn = args.runOn ?? "host";
  const refuse = (problem: string) => err(invalidArguments("bg_run", [problem]));
  if (runOn === "host")
    return args.image === undefined
      ? ok(undefined)
      : refuse(`'image' is only for runOn "docker" or "swarm": add runOn, or leave image out to run on this machine`);
  if (args.isAgent)
    return refuse(
      `an agent run (isAgent: true) cannot run in a container: its telemetry is not available there; use runOn "host", or isAgent: false for a plain command`,
    );
  if (args.surviveReload === true)
    return refuse(
      `'surviveReload' is not available for container tasks yet: leave it out (the container is stopped when the session ends)`,
    );
  return ok(args.image === undefined ? { runOn } : { runOn, image: args.image });
}

const DERIVED_NAME_CHARS = 48;

/** A readable name when the caller gave none: the description, a package-script name, or the first words. */
export function deriveTaskName(command: string, description?: string): string {
  const source = description ?? scriptName(command) ?? command.split(/\s+/).slice(0, 5).join(" ");
  const oneLine = source.replace(/\s+/g, " ").trim();
  return oneLine.length <= DERIVED_NAME_CHARS ? oneLine : `${oneLine.slice(0, DERIVED_NAME_CHARS - 1)}…`;
}

function scriptName(command: string): string | undefined {
  const match = /^(npm|pnpm|yarn|bun)\s+(?:run\s+)?([\w:.-]+)/.exec(command);
  return match ? `${match[1]} ${match[2]}` : undefined;
}

import { type Static, Type } from "typebox";
import { Value } from "typebox/value";
import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";

/** What container tasks get unless a config file says otherwise. */
export const CONTAINER_SETTINGS_DEFAULTS = { network: false, pidsLimit: 4096 } as const;

export const ContainerSettingsSchema = Type.Object(
  {
    /** The image a `runOn: "docker"` task runs when it names none. */
    image: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._/:@-]*$", maxLength: 255 })),
    cpus: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1024 })),
    memoryBytes: Type.Optional(Type.Integer({ minimum: 4 * 1024 * 1024 })),
    pidsLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 4_194_304 })),
    network: Type.Optional(Type.Boolean()),
    /** Swarm placement constraints (`node.labels.gpu==true`), added to the job's pin to this engine's node. */
    swarmConstraints: Type.Optional(
      Type.Array(Type.String({ pattern: "^[A-Za-z0-9._-]+ *(==|!=) *[A-Za-z0-9._:/=-]+$", maxLength: 200 }), {
        maxItems: 16,
      }),
    ),
  },
  { additionalProperties: false },
);

export type ContainerSettingsFile = Static<typeof ContainerSettingsSchema>;

export interface ContainerSettings {
  readonly image?: string;
  readonly cpus?: number;
  readonly memoryBytes?: number;
  readonly pidsLimit: number;
  readonly network: boolean;
  readonly swarmConstraints?: readonly string[];
}

export type ContainerSettingsError = TypedError<"container_config_invalid">;

/** A config file's bytes as settings; `where` names the file in the error. */
export function parseContainerSettings(
  bytes: Uint8Array,
  where: string,
): Result<ContainerSettingsFile, ContainerSettingsError> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    return err(invalid(where, `is not JSON: ${error instanceof Error ? error.message : String(error)}`));
  }
  if (!Value.Check(ContainerSettingsSchema, value)) {
    const first = Value.Errors(ContainerSettingsSchema, value)[0];
    return err(invalid(where, `does not fit its schema: ${first?.instancePath || "/"} ${first?.message ?? ""}`.trim()));
  }
  return ok(value);
}

/**
 * The settings container tasks run with: the user's file over the defaults, then the project's file, which may
 * only narrow them (any task can write a project file, so it may lower limits, turn the network off or add Swarm
 * constraints, never raise a limit, turn the network on or choose the image). A project file that tries is
 * refused whole.
 */
export function containerSettings(
  user: ContainerSettingsFile | undefined,
  project: ContainerSettingsFile | undefined,
  projectWhere: string,
): Result<ContainerSettings, ContainerSettingsError> {
  const base: ContainerSettings = { ...CONTAINER_SETTINGS_DEFAULTS, ...user };
  if (project === undefined) return ok(base);
  const widened = [
    project.image !== undefined ? "image (only your own config file may choose it)" : undefined,
    project.network === true && !base.network ? "network (it is off)" : undefined,
    above(project.cpus, base.cpus) ? "cpus" : undefined,
    above(project.memoryBytes, base.memoryBytes) ? "memoryBytes" : undefined,
    above(project.pidsLimit, base.pidsLimit) ? "pidsLimit" : undefined,
  ].filter((w): w is string => w !== undefined);
  if (widened.length > 0)
    return err(invalid(projectWhere, `may only narrow the container settings, but widens ${widened.join(", ")}`));
  const constraints = [...(base.swarmConstraints ?? []), ...(project.swarmConstraints ?? [])];
  return ok({ ...base, ...project, ...(constraints.length === 0 ? {} : { swarmConstraints: constraints }) });
}

/** A project value above the user's widens; a limit where the user set none narrows. */
const above = (project: number | undefined, user: number | undefined) =>
  project !== undefined && user !== undefined && project > user;

const invalid = (where: string, problem: string): ContainerSettingsError => ({
  code: "container_config_invalid",
  message: `${where} ${problem}; no task was started`,
});

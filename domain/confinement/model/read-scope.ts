import { err, ok, type Result, type TypedError } from "../../shared/model/result.ts";

/**
 * What the read tools (`read`, `grep`, `find`, `ls`) of a child whose model may be hijacked can reach: the
 * project root and below, except the denied directories (the project's own `.pi/` with the other stages'
 * answers and every run's artifacts, the agent dir with Pi's credentials and the children's own agent dir
 * linked to it) and the kernel's /proc, /sys and
 * /dev. Every path is a realpath (symlinks resolved). The parent hands it to the child in `READ_SCOPE_ENV`;
 * a child extension enforces it on every call (adapters/pi/child/read-confinement.ts).
 */
export interface ReadScope {
  readonly root: string;
  readonly denied: readonly string[];
}

export const READ_SCOPE_ENV = "PI_BG_READ_SCOPE";
const SCHEMA = "pi-background-tasks.read-scope.v1";
const KERNEL = ["/proc", "/sys", "/dev"];

export type ReadScopeError = TypedError<"read_root_too_broad">;

/**
 * The scope of a child working in `cwd`: the root is the Git top level that contains it, or `cwd` itself
 * outside a repository. A root that is `/`, the home directory or one of its ancestors would hand the child
 * every file of the user, so it is refused before anything runs.
 */
export function readScopeFor(input: {
  readonly cwd: string;
  readonly gitTop: string | undefined;
  readonly home: string;
  readonly agentDir: string;
  /** The agent dir the runner gives its children, when it is not the user's. */
  readonly childAgentDir?: string;
}): Result<ReadScope, ReadScopeError> {
  const root = input.gitTop ?? input.cwd;
  if (root === "/" || within(input.home, root))
    return err({
      code: "read_root_too_broad",
      message: `the project root ${root} is ${root === "/" ? "the file system root" : "the home directory or above it"}: a child's read tools would reach every file of the user; run from inside a project directory`,
    });
  const childAgentDir = input.childAgentDir === undefined ? [] : [input.childAgentDir];
  return ok({ root, denied: [`${root}/.pi`, input.agentDir, ...childAgentDir, ...KERNEL] });
}

/** Why the child may not open `realPath`, or undefined when it may. */
export function refusalOf(scope: ReadScope, realPath: string): string | undefined {
  if (!within(realPath, scope.root)) return `it is outside the project root ${scope.root}`;
  const denied = scope.denied.find((dir) => within(realPath, dir));
  if (denied === undefined) return undefined;
  return denied === `${scope.root}/.pi`
    ? "it is inside the project's .pi/ directory (run artifacts and other stages' answers)"
    : `it is inside ${denied}, which no child may read`;
}

/** Whether `path` is `dir` or below it (both absolute and normalised). */
export function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

export function serialiseReadScope(scope: ReadScope): string {
  return JSON.stringify({ schema: SCHEMA, root: scope.root, denied: scope.denied });
}

export function parseReadScope(text: string | undefined): Result<ReadScope, TypedError<"read_scope_invalid">> {
  const invalid = (why: string) =>
    err({ code: "read_scope_invalid" as const, message: `${READ_SCOPE_ENV} ${why}; every read is refused` });
  if (text === undefined) return invalid("is not set");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid("is not JSON");
  }
  const { schema, root, denied } = (value ?? {}) as { schema?: unknown; root?: unknown; denied?: unknown };
  const absolute = (p: unknown): p is string => typeof p === "string" && p.startsWith("/") && !p.includes("\0");
  if (schema !== SCHEMA || !absolute(root) || root === "/" || !Array.isArray(denied) || !denied.every(absolute))
    return invalid(`is not a ${SCHEMA} document`);
  return ok({ root, denied });
}

import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { readScopeFor, type ReadScope, type ReadScopeError } from "../../domain/confinement/model/read-scope.ts";
import type { Result } from "../../domain/shared/model/result.ts";

/**
 * The read scope of a child working in `cwd`, with the Git top level found by walking up to a `.git` entry;
 * `childAgentDir` is denied too when the runner gives its children an agent dir of their own.
 */
export function nodeReadScope(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  childAgentDir?: string,
): Result<ReadScope, ReadScopeError> {
  const real = realpathOrSelf(cwd);
  const home = realpathOrSelf(env.HOME ?? homedir());
  return readScopeFor({
    cwd: real,
    gitTop: gitTopOf(real),
    home,
    agentDir: realpathOrSelf(env.PI_CODING_AGENT_DIR ?? join(home, ".pi", "agent")),
    ...(childAgentDir === undefined ? {} : { childAgentDir: realpathOrSelf(childAgentDir) }),
  });
}

/** `.git` is a directory in a repository and a file in a linked worktree or submodule; both mark the top. */
function gitTopOf(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, ".git"))) return at;
    if (at === dirname(at)) return undefined;
  }
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // not there (yet): the scope still names it, and nothing under it can be opened
  }
}

import { READ_SCOPE_ENV, serialiseReadScope, type ReadScope } from "../../confinement/model/read-scope.ts";
import { CHILD_DENIED_TOOLS } from "../../shared/model/child-tool-denylist.ts";
import { piChildArgs, sessionById } from "../../shared/model/pi-child-argv.ts";
import type { PiCliFlags } from "../../shared/model/pi-cli-flags.ts";
import { artifactPath, DELEGATE_ARTIFACT, DELEGATE_ENV } from "./delegate-artifacts.ts";
import type { RouteRef } from "./delegate-route.ts";

/** The inspect-only boundary, as argv: Pi's allowlist over built-in and extension tools. */
export const DELEGATE_CHILD_TOOLS: readonly string[] = ["read", "grep", "find", "ls", "delegate_read_artifact"];

/** The explicit denylist where the host has `--exclude-tools`: every child-denied tool, and no web fetch. */
export const DELEGATE_DENIED_TOOLS: readonly string[] = [...CHILD_DENIED_TOOLS, "fusion_web_fetch"];

/**
 * Which form of isolation the child got, recorded in the manifest. The seeds' form where the host has the
 * flags (Pi 1.x): its own `--session-id` in the task-owned `--session-dir`, the allowlist plus an explicit
 * `--exclude-tools` denylist, and `--no-mcp`. Pi 0.73.1's equivalent: a task-owned `--session <file>` and the
 * allowlist alone. On both, the guard checks the child's own tool registry before its first model call.
 */
export interface DelegateIsolation {
  readonly session: "session-id-in-session-dir" | "session-file";
  readonly tools: "allowlist+denylist" | "allowlist";
  /** "no-mcp-flag": the host has no `--no-mcp` (Pi 0.73.1 has no MCP client; --no-extensions covers built-ins). */
  readonly mcp: "disabled" | "no-mcp-flag";
  readonly registry_checked_by_guard: true;
}

export interface LaunchPlanInput {
  /** The Node binary (`process.execPath`): children run `node <cli>`, never a shell or a PATH lookup. */
  readonly nodePath: string;
  readonly cliPath: string;
  readonly artifactDir: string;
  readonly childSessionId: string;
  readonly guardExtensionPath: string;
  /** Passed (before the guard) only to `anthropic` children, whose provider rejects Pi's own system prompt lines. */
  readonly anthropicSanitizerPath?: string;
  readonly route: RouteRef;
  readonly seedSha256: string;
  readonly taskId: string;
  readonly launchNonce: string;
  /** Where the child's read tools may reach (its guard enforces it). */
  readonly readScope: ReadScope;
  /** What the child's Pi CLI offers (probed from its `--help`). */
  readonly flags: PiCliFlags;
}

export interface LaunchPlan {
  readonly file: string;
  readonly args: readonly string[];
  /** Task-owned: the child's session lives here and nowhere else. */
  readonly sessionDir: string;
  /** The session file when the package names it (Pi 0.73.1); null when Pi names it after the id in `sessionDir`. */
  readonly sessionFile: string | null;
  readonly isolation: DelegateIsolation;
  /** Added to the stripped parent environment; the prompt itself goes over stdin. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * `node <cli>` and the `delegate` command line of domain/shared/model/pi-child-argv.ts: the inspect-only
 * allowlist (plus the denylist where the CLI has `--exclude-tools`), [the sanitizer,] the guard, and the
 * session `--session-dir <dir>/child-session --session-id <delegate-id>` or, on a Pi without those
 * (0.73.1), `--session <dir>/child-session/<delegate-id>.jsonl`.
 */
export function buildLaunchPlan(input: LaunchPlanInput): LaunchPlan {
  const { flags } = input;
  const sessionDir = artifactPath(input.artifactDir, DELEGATE_ARTIFACT.childSessionDir);
  const byId = sessionById(flags);
  const file = artifactPath(input.artifactDir, `${DELEGATE_ARTIFACT.childSessionDir}/${input.childSessionId}.jsonl`);
  const sanitizer =
    input.route.provider === "anthropic" && input.anthropicSanitizerPath !== undefined
      ? [input.anthropicSanitizerPath]
      : [];
  const args = [
    input.cliPath,
    ...piChildArgs(
      {
        role: "delegate",
        route: input.route,
        session: { dir: sessionDir, id: input.childSessionId, file },
        tools: { allow: DELEGATE_CHILD_TOOLS, deny: DELEGATE_DENIED_TOOLS },
        extensions: [...sanitizer, input.guardExtensionPath],
      },
      flags,
    ),
  ];
  const sessionFile = byId ? null : file;
  const env = {
    [DELEGATE_ENV.artifactDir]: input.artifactDir,
    [DELEGATE_ENV.seedPath]: artifactPath(input.artifactDir, DELEGATE_ARTIFACT.seed),
    [DELEGATE_ENV.seedSha256]: input.seedSha256,
    [DELEGATE_ENV.taskId]: input.taskId,
    [DELEGATE_ENV.launchNonce]: input.launchNonce,
    [READ_SCOPE_ENV]: serialiseReadScope(input.readScope),
    PI_SKIP_VERSION_CHECK: "1",
  };
  const isolation: DelegateIsolation = {
    session: byId ? "session-id-in-session-dir" : "session-file",
    tools: flags.excludeTools ? "allowlist+denylist" : "allowlist",
    mcp: flags.noMcp ? "disabled" : "no-mcp-flag",
    registry_checked_by_guard: true,
  };
  return { file: input.nodePath, args, sessionDir, sessionFile, isolation, env };
}

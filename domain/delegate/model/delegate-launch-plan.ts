import { CHILD_DENIED_TOOLS } from "../../shared/model/child-tool-denylist.ts";
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
 * `node <cli> --mode json <session> --no-skills --no-prompt-templates --no-context-files --no-themes
 * --no-extensions [--no-mcp] --no-builtin-tools --tools read,grep,find,ls,delegate_read_artifact
 * [--exclude-tools <denylist>] [--extension <sanitizer>] --extension <guard> --provider P --model M --offline`,
 * where <session> is `--session-dir <dir>/child-session --session-id <delegate-id>` or, on a Pi without those
 * (0.73.1), `--session <dir>/child-session/<delegate-id>.jsonl`.
 */
export function buildLaunchPlan(input: LaunchPlanInput): LaunchPlan {
  const { flags } = input;
  const sessionDir = artifactPath(input.artifactDir, DELEGATE_ARTIFACT.childSessionDir);
  const byId = flags.sessionId && flags.sessionDir;
  const sessionFile = byId
    ? null
    : artifactPath(input.artifactDir, `${DELEGATE_ARTIFACT.childSessionDir}/${input.childSessionId}.jsonl`);
  const session =
    sessionFile === null
      ? ["--session-dir", sessionDir, "--session-id", input.childSessionId]
      : ["--session", sessionFile];
  const extensions =
    input.route.provider === "anthropic" && input.anthropicSanitizerPath !== undefined
      ? ["--extension", input.anthropicSanitizerPath, "--extension", input.guardExtensionPath]
      : ["--extension", input.guardExtensionPath];
  const args = [
    input.cliPath,
    "--mode",
    "json",
    ...session,
    "--no-skills",
    "--no-prompt-templates",
    "--no-context-files",
    "--no-themes",
    "--no-extensions",
    ...(flags.noMcp ? ["--no-mcp"] : []),
    "--no-builtin-tools",
    "--tools",
    DELEGATE_CHILD_TOOLS.join(","),
    ...(flags.excludeTools ? ["--exclude-tools", DELEGATE_DENIED_TOOLS.join(",")] : []),
    ...extensions,
    "--provider",
    input.route.provider,
    "--model",
    input.route.model,
    "--offline",
  ];
  const env = {
    [DELEGATE_ENV.artifactDir]: input.artifactDir,
    [DELEGATE_ENV.seedPath]: artifactPath(input.artifactDir, DELEGATE_ARTIFACT.seed),
    [DELEGATE_ENV.seedSha256]: input.seedSha256,
    [DELEGATE_ENV.taskId]: input.taskId,
    [DELEGATE_ENV.launchNonce]: input.launchNonce,
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

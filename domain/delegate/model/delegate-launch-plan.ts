import { artifactPath, DELEGATE_ARTIFACT, DELEGATE_ENV } from "./delegate-artifacts.ts";
import type { RouteRef } from "./delegate-route.ts";

/** The inspect-only boundary, as argv: Pi's allowlist over built-in and extension tools. */
export const DELEGATE_CHILD_TOOLS: readonly string[] = ["read", "grep", "find", "ls", "delegate_read_artifact"];

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
}

export interface LaunchPlan {
  readonly file: string;
  readonly args: readonly string[];
  readonly sessionFile: string;
  /** Added to the stripped parent environment; the prompt itself goes over stdin. */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * `node <cli> --mode json --session <dir>/child-session/<delegate-id>.jsonl --no-skills --no-prompt-templates
 * --no-context-files --no-themes --no-extensions --no-builtin-tools --tools read,grep,find,ls,delegate_read_artifact
 * [--extension <sanitizer>] --extension <guard> --provider P --model M --offline`.
 * Pi 0.73.1 has neither `--session-id` nor `--exclude-tools`: a session file path and the allowlist do their work.
 */
export function buildLaunchPlan(input: LaunchPlanInput): LaunchPlan {
  const sessionFile = artifactPath(input.artifactDir, `${DELEGATE_ARTIFACT.childSessionDir}/${input.childSessionId}.jsonl`);
  const extensions = input.route.provider === "anthropic" && input.anthropicSanitizerPath !== undefined
    ? ["--extension", input.anthropicSanitizerPath, "--extension", input.guardExtensionPath]
    : ["--extension", input.guardExtensionPath];
  const args = [
    input.cliPath,
    "--mode",
    "json",
    "--session",
    sessionFile,
    "--no-skills",
    "--no-prompt-templates",
    "--no-context-files",
    "--no-themes",
    "--no-extensions",
    "--no-builtin-tools",
    "--tools",
    DELEGATE_CHILD_TOOLS.join(","),
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
  return { file: input.nodePath, args, sessionFile, env };
}

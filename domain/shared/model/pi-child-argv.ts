import type { PiCliFlags } from "./pi-cli-flags.ts";

/**
 * The one builder of every `pi` command line this package starts: Fusion stages (candidates, evaluator,
 * merger), delegate children, attested runs, the hook-contract probes, and the `pi` function of command
 * interception (`piCliLaunch`). Which optional flags a child gets comes from the probed `PiCliFlags` of its
 * CLI (Pi 0.73.1 has none of them, Pi 1.x all), never from a version guess.
 */

/** How the Pi CLI starts without a shell: `node <cli.js>`, or a standalone executable as it is. */
export interface PiCliLaunch {
  readonly file: string;
  readonly args: readonly string[];
}

export function piCliLaunch(nodePath: string, cliPath: string): PiCliLaunch {
  return /\.[cm]?js$/.test(cliPath) ? { file: nodePath, args: [cliPath] } : { file: cliPath, args: [] };
}

export interface PiRoute {
  readonly provider: string;
  readonly model: string;
  readonly thinking?: string;
}

/** An allowlist over built-in and extension tools; `deny` is added where the CLI has `--exclude-tools`. */
export interface PiToolGrant {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/** A task-owned session: by id in `dir` where the CLI can (Pi 1.x), else the named `file` (Pi 0.73.1). */
export interface PiTaskSession {
  readonly dir: string;
  readonly id: string;
  readonly file: string;
}

export type PiChildRole =
  | {
      readonly role: "fusion-stage";
      readonly route: PiRoute;
      readonly tools: PiToolGrant;
      readonly extensions: readonly string[];
      readonly systemPrompt: string;
    }
  | {
      readonly role: "delegate";
      readonly route: PiRoute;
      readonly session: PiTaskSession;
      readonly tools: PiToolGrant;
      readonly extensions: readonly string[];
    }
  | {
      readonly role: "hook-probe";
      readonly tools: PiToolGrant;
      readonly extensions: readonly string[];
      readonly prompt: string;
    }
  | { readonly role: "attested"; readonly route: PiRoute; readonly extraArgs: readonly string[] };

/**
 * The arguments after the CLI launch. Isolated children (every role but `attested`, which is the user's own
 * run) get `--mode M <session> <tool policy> --no-extensions [--no-mcp] --no-skills --no-prompt-templates
 * --no-themes --no-context-files --offline --extension <each, in order> <route> [--system-prompt S]
 * [-p <prompt>]`; prompts other than the probes' go over stdin.
 */
export function piChildArgs(child: PiChildRole, flags: PiCliFlags): string[] {
  switch (child.role) {
    case "fusion-stage":
      return [
        ...["--mode", "text", "--no-session"],
        ...isolated(child.tools, child.extensions, flags),
        ...route(child.route),
        ...["--system-prompt", child.systemPrompt],
      ];
    case "delegate":
      return [
        ...["--mode", "json"],
        ...session(child.session, flags),
        ...isolated(child.tools, child.extensions, flags),
        ...route(child.route),
      ];
    case "hook-probe":
      return [
        ...["--mode", "json", "--no-session"],
        ...isolated(child.tools, child.extensions, flags),
        ...["-p", child.prompt],
      ];
    case "attested":
      return ["--mode", "json", ...route(child.route), ...child.extraArgs];
  }
}

/** Whether a delegate child's session is named by id (the CLI has both flags) or by file. */
export const sessionById = (flags: PiCliFlags): boolean => flags.sessionId && flags.sessionDir;

function session(s: PiTaskSession, flags: PiCliFlags): string[] {
  return sessionById(flags) ? ["--session-dir", s.dir, "--session-id", s.id] : ["--session", s.file];
}

function isolated(tools: PiToolGrant, extensions: readonly string[], flags: PiCliFlags): string[] {
  return [
    ...toolPolicy(tools, flags),
    "--no-extensions",
    // Pi 1.x: --no-extensions already keeps its built-in MCP extension out; the switch says so explicitly.
    ...(flags.noMcp ? ["--no-mcp"] : []),
    "--no-skills",
    "--no-prompt-templates",
    "--no-themes",
    "--no-context-files",
    "--offline",
    ...extensions.flatMap((path) => ["--extension", path]),
  ];
}

function toolPolicy(tools: PiToolGrant, flags: PiCliFlags): string[] {
  if (tools.allow.length === 0) return ["--no-tools"];
  // --tools is an allowlist over built-in and extension tools on every supported Pi; the denylist is
  // belt and braces where the flag exists.
  const deny = flags.excludeTools && tools.deny.length > 0 ? ["--exclude-tools", tools.deny.join(",")] : [];
  return ["--no-builtin-tools", "--tools", tools.allow.join(","), ...deny];
}

function route(r: PiRoute): string[] {
  return [
    ...["--provider", r.provider, "--model", r.model],
    ...(r.thinking === undefined ? [] : ["--thinking", r.thinking]),
  ];
}

/**
 * The child-isolation flags a Pi CLI offers, read from its own `--help` rather than guessed from its version:
 * Pi 0.73.1 has none of these; Pi 1.x has all of them.
 */
export interface PiCliFlags {
  /** `--exclude-tools <list>`: a denylist applied to every tool, MCP tools included. */
  readonly excludeTools: boolean;
  /** `--no-mcp`: no MCP server connects and no MCP tool exists. */
  readonly noMcp: boolean;
  /** `--session-id <id>`: the session of that id in the session directory. */
  readonly sessionId: boolean;
  /** `--session-dir <dir>`: where sessions are stored and looked up. */
  readonly sessionDir: boolean;
}

/** What an unknown CLI is assumed to offer: only the flags every supported Pi has. */
export const BASELINE_PI_FLAGS: PiCliFlags = { excludeTools: false, noMcp: false, sessionId: false, sessionDir: false };

/** The flags named as options in `pi --help` text: an option line starts with its long flag, after indentation. */
export function parsePiHelpFlags(help: string): PiCliFlags {
  const options = new Set<string>();
  for (const line of help.split("\n")) {
    const option = /^\s+(--[a-z][a-z-]*)/.exec(line)?.[1];
    if (option !== undefined) options.add(option);
  }
  return {
    excludeTools: options.has("--exclude-tools"),
    noMcp: options.has("--no-mcp"),
    sessionId: options.has("--session-id"),
    sessionDir: options.has("--session-dir"),
  };
}

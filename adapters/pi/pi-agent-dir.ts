import { homedir } from "node:os";
import { join } from "node:path";

/** The variable Pi reads for its agent directory (`getAgentDir()`), honoured the same way here. */
export const PI_AGENT_DIR_ENV = "PI_CODING_AGENT_DIR";

/**
 * Pi's agent directory for a process that is not Pi: `PI_CODING_AGENT_DIR` (with `~` expanded, as Pi
 * does) or `~/.pi/agent`. Taken from the environment the server was given, not from Pi's globals.
 */
export function piAgentDir(env: Readonly<Record<string, string | undefined>>, home: string = homedir()): string {
  const configured = env[PI_AGENT_DIR_ENV];
  if (configured === undefined || configured === "") return join(home, ".pi", "agent");
  if (configured === "~") return home;
  return configured.startsWith("~/") ? join(home, configured.slice(2)) : configured;
}

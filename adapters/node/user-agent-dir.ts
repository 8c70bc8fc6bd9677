import { homedir } from "node:os";
import { join } from "node:path";

/** The user's Pi agent dir as a child inherits it: `PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
export function userAgentDir(env: Readonly<Record<string, string | undefined>>): string {
  return env.PI_CODING_AGENT_DIR ?? join(env.HOME ?? homedir(), ".pi", "agent");
}

/**
 * Which system-prompt lines an Anthropic child drops (reference §3.10). Pi's default system prompt ends
 * with a "Pi documentation" block naming Pi's README, docs and examples paths; Anthropic's subscription
 * route rejects prompts carrying it. Only complete lines of that block are removed:
 *   - the block header, matched by its exact prefix, and
 *   - the lines that directly follow it (or a removed line) and start with one of the bullet prefixes.
 * A bullet such as "- Examples: …" anywhere else in a prompt stays. The list was taken from the system
 * prompt Pi 0.73.1 actually sends (dumped from `before_agent_start` with no `--system-prompt`); a test
 * against the real CLI fails if Pi changes the wording.
 *
 * Runs inside the child Pi: no imports.
 */
export const PI_DOCS_HEADER_PREFIX = "Pi documentation (read only when the user asks about pi itself";

export const PI_DOCS_BULLET_PREFIXES: readonly string[] = [
  "- Main documentation: ",
  "- Additional docs: ",
  "- Examples: ",
  "- When asked about: extensions (",
  "- When working on pi topics, ",
  "- Always read pi .md files completely",
];

export interface SanitizedPrompt {
  readonly prompt: string;
  readonly removed: readonly string[];
}

export function removePiDocumentationLines(prompt: string): SanitizedPrompt {
  const kept: string[] = [];
  const removed: string[] = [];
  let inBlock = false;
  for (const line of prompt.split("\n")) {
    const header: boolean = line.startsWith(PI_DOCS_HEADER_PREFIX);
    const bullet: boolean = inBlock && PI_DOCS_BULLET_PREFIXES.some((prefix) => line.startsWith(prefix));
    inBlock = header || bullet;
    if (inBlock) removed.push(line);
    else kept.push(line);
  }
  return { prompt: kept.join("\n"), removed };
}

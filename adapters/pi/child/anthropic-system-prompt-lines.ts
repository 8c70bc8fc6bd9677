/**
 * Which system-prompt lines an Anthropic child drops (reference §3.10). Pi's default system prompt ends
 * with a "Pi documentation" block naming Pi's README, docs and examples paths; Anthropic's subscription
 * route rejects prompts carrying it. Only complete lines of that block are removed:
 *   - the block header, matched by its exact prefix, and
 *   - the lines that directly follow it (or a removed line) and start with one of the bullet prefixes.
 * A bullet such as "- Examples: …" anywhere else in a prompt stays. Pi 1.x wraps the block in a `<docs>`
 * section: a `<docs>` line right before the header and a `</docs>` line right after the block go with it.
 * The lists were taken from the system prompts Pi 0.73.1 and Pi 1.6.0 actually send (dumped from
 * `before_agent_start` with no `--system-prompt`); a test against the real CLI fails if Pi changes the wording.
 *
 * Runs inside the child Pi: no imports.
 */
export const PI_DOCS_HEADER_PREFIXES: readonly string[] = [
  "Pi documentation (read only when the user asks about pi itself",
  "Pi documentation (read only when the user asks about the harness itself",
];

export const PI_DOCS_BULLET_PREFIXES: readonly string[] = [
  "- Main documentation: ",
  "- Additional docs: ",
  "- Examples: ",
  "- When asked about: extensions (",
  "- When working on pi topics, ",
  "- Always read pi .md files completely",
  "- When reading pi docs or examples, ",
  "- Before implementing harness changes, ",
];

const SECTION_OPEN = "<docs>";
const SECTION_CLOSE = "</docs>";

export interface SanitizedPrompt {
  readonly prompt: string;
  readonly removed: readonly string[];
}

export function removePiDocumentationLines(prompt: string): SanitizedPrompt {
  const kept: string[] = [];
  const removed: string[] = [];
  let inBlock = false;
  for (const line of prompt.split("\n")) {
    const header: boolean = PI_DOCS_HEADER_PREFIXES.some((prefix) => line.startsWith(prefix));
    const bullet: boolean = inBlock && PI_DOCS_BULLET_PREFIXES.some((prefix) => line.startsWith(prefix));
    const closing = inBlock && !bullet && line === SECTION_CLOSE && removed[0] === SECTION_OPEN;
    if (header && kept.at(-1) === SECTION_OPEN) removed.push(kept.pop() ?? SECTION_OPEN);
    inBlock = header || bullet;
    if (inBlock || closing) removed.push(line);
    else kept.push(line);
  }
  return { prompt: kept.join("\n"), removed };
}

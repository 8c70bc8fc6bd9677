import {
  matches,
  PiImageBlockSchema,
  PiTextBlockSchema,
  PiThinkingBlockSchema,
  PiToolCallBlockSchema,
  type PiUsage,
} from "./pi-event-shapes.ts";

/**
 * Pi's own context arithmetic (pi-coding-agent `core/compaction/compaction.js`), reproduced so a background
 * task shows the number Pi itself would show: the last valid assistant usage plus a chars/4 estimate of every
 * message that came after it.
 */

/**
 * Where the two Pi generations count differently: Pi 1.x also counts images in user messages, and counts
 * `system` messages (its prompt and tool changes, which Pi 0.x never emits). A stream shows its generation:
 * Pi 1.x emits a `system` message before the first user message of a run.
 */
export interface ContextRules {
  readonly userImages: boolean;
}
export const PI_0_CONTEXT_RULES: ContextRules = { userImages: false };
export const PI_1_CONTEXT_RULES: ContextRules = { userImages: true };

/** `calculateContextTokens`: the provider's total when it gave one, else the sum of the parts. */
export function contextTokensOfUsage(usage: PiUsage): number {
  const total = usage.totalTokens ?? 0;
  return total > 0 ? total : usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** Pi counts image blocks as 4800 characters (1200 tokens). */
const IMAGE_CHARS = 4800;

/** `estimateTokens`: ceil(characters / 4) per message, by role; unknown roles count 0 as in Pi. */
export function estimateMessageTokens(message: unknown, rules: ContextRules = PI_0_CONTEXT_RULES): number {
  if (typeof message !== "object" || message === null) return 0;
  const m = message as Readonly<Record<string, unknown>>;
  switch (m.role) {
    case "system":
      return quarter(contentChars(m.content, true) + sectionChars(m.sections) + jsonLength(m.toolsAdded));
    case "user":
      return quarter(contentChars(m.content, rules.userImages));
    case "assistant":
      return quarter(assistantChars(m.content));
    case "custom":
    case "toolResult":
      return quarter(contentChars(m.content, true));
    case "bashExecution":
      return quarter(stringLength(m.command) + stringLength(m.output));
    case "branchSummary":
    case "compactionSummary":
      return quarter(stringLength(m.summary));
    default:
      return 0;
  }
}

function quarter(chars: number): number {
  return Math.ceil(chars / 4);
}

function sectionChars(sections: unknown): number {
  if (typeof sections !== "object" || sections === null) return 0;
  return Object.values(sections).reduce((sum: number, section: unknown) => sum + stringLength(section), 0);
}

function stringLength(value: unknown): number {
  return typeof value === "string" ? value.length : 0;
}

function contentChars(content: unknown, countImages: boolean): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (matches(PiTextBlockSchema, block)) chars += block.text.length;
    else if (countImages && matches(PiImageBlockSchema, block)) chars += IMAGE_CHARS;
  }
  return chars;
}

function assistantChars(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (matches(PiTextBlockSchema, block)) chars += block.text.length;
    else if (matches(PiThinkingBlockSchema, block)) chars += block.thinking.length;
    else if (matches(PiToolCallBlockSchema, block)) chars += block.name.length + jsonLength(block.arguments);
  }
  return chars;
}

function jsonLength(value: unknown): number {
  // JSON.stringify(undefined) is undefined in Pi as well; its `.length` would throw there, here it counts 0.
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? 0 : text.length;
}

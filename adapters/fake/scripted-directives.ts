import type { ScriptedReply, ScriptedToolCall, ScriptedUsage } from "./scripted-reply.ts";

/**
 * Directives a prompt can carry to script the model without a test harness:
 * `[[tool NAME {json}]]` (repeatable), `[[sleep MS]]`, `[[error STATUS]]`, `[[text ...]]` (repeatable, joined
 * by a space), `[[usage IN OUT [CACHE_READ [CACHE_WRITE]]]]`.
 */
export interface ParsedDirectives {
  /** Undefined when the text holds no directive at all. */
  readonly reply: ScriptedReply | undefined;
  /** Malformed directives, reported instead of being dropped. */
  readonly problems: readonly string[];
}

interface Draft {
  texts: string[];
  toolCalls: ScriptedToolCall[];
  delayMs?: number;
  errorStatus?: number;
  usage?: ScriptedUsage;
  problems: string[];
  found: boolean;
}

const KEYWORDS = ["tool", "sleep", "error", "text", "usage"] as const;
type Keyword = (typeof KEYWORDS)[number];

export function parseDirectives(text: string): ParsedDirectives {
  const draft: Draft = { texts: [], toolCalls: [], problems: [], found: false };
  let at = text.indexOf("[[");
  while (at !== -1) {
    const keyword = keywordAt(text, at + 2);
    const next = keyword === undefined ? at + 2 : readDirective(text, at + 2 + keyword.length, keyword, draft);
    at = text.indexOf("[[", next);
  }
  return { reply: draft.found ? toReply(draft) : undefined, problems: draft.problems };
}

function keywordAt(text: string, at: number): Keyword | undefined {
  return KEYWORDS.find((word) => text.startsWith(word, at) && /[\s\]]/.test(text.charAt(at + word.length)));
}

/** Reads one directive whose body starts at `at`; returns where scanning resumes. */
function readDirective(text: string, at: number, keyword: Keyword, draft: Draft): number {
  if (keyword === "tool") return readTool(text, at, draft);
  const end = text.indexOf("]]", at);
  if (end === -1) {
    draft.problems.push(`unterminated [[${keyword} ...`);
    return text.length;
  }
  draft.found = true;
  const body = text.slice(at, end).trim();
  if (keyword === "text") draft.texts.push(body);
  else applyNumbers(keyword, body, draft);
  return end + 2;
}

function applyNumbers(keyword: "sleep" | "error" | "usage", body: string, draft: Draft): void {
  const parts = body === "" ? [] : body.split(/\s+/);
  const numbers = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN));
  if (numbers.some((n) => Number.isNaN(n))) {
    draft.problems.push(`[[${keyword} ${body}]] needs non-negative integers`);
    return;
  }
  const [first, second, third, fourth] = numbers;
  if (keyword === "sleep" && first !== undefined && numbers.length === 1) draft.delayMs = first;
  else if (keyword === "error" && first !== undefined && numbers.length === 1 && first >= 400 && first <= 599)
    draft.errorStatus = first;
  else if (keyword === "usage" && first !== undefined && numbers.length <= 4) {
    draft.usage = { input: first, output: second ?? 0, cacheRead: third ?? 0, cacheWrite: fourth ?? 0 };
  } else draft.problems.push(`[[${keyword} ${body}]] has the wrong shape`);
}

function readTool(text: string, at: number, draft: Draft): number {
  const name = /^\s+([A-Za-z0-9_.:-]+)\s*/.exec(text.slice(at));
  if (name === null || name[1] === undefined) {
    draft.problems.push("[[tool]] needs a tool name");
    return at;
  }
  let cursor = at + name[0].length;
  let args: Record<string, unknown> = {};
  if (text.charAt(cursor) === "{") {
    const jsonEnd = endOfJsonObject(text, cursor);
    const parsed = jsonEnd === -1 ? undefined : parseObject(text.slice(cursor, jsonEnd));
    if (parsed === undefined) {
      draft.problems.push(`[[tool ${name[1]}]] arguments are not a JSON object`);
      return cursor;
    }
    args = parsed;
    cursor = jsonEnd;
  }
  const close = /^\s*\]\]/.exec(text.slice(cursor));
  if (close === null) {
    draft.problems.push(`[[tool ${name[1]} ...]] is not closed by ]]`);
    return cursor;
  }
  draft.found = true;
  draft.toolCalls.push({ name: name[1], arguments: args });
  return cursor + close[0].length;
}

/** Index just past the `}` matching the `{` at `start`, honouring JSON strings; -1 if unbalanced. */
function endOfJsonObject(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const ch = text.charAt(i);
    if (inString) {
      if (ch === "\\") i += 1;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth += 1;
    else if (ch === "}" || ch === "]") {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

function parseObject(json: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function toReply(draft: Draft): ScriptedReply {
  return {
    ...(draft.texts.length > 0 ? { text: draft.texts.join(" ") } : {}),
    ...(draft.toolCalls.length > 0 ? { toolCalls: draft.toolCalls } : {}),
    ...(draft.delayMs !== undefined ? { delayMs: draft.delayMs } : {}),
    ...(draft.errorStatus !== undefined ? { httpError: { status: draft.errorStatus } } : {}),
    ...(draft.usage !== undefined ? { usage: draft.usage } : {}),
  };
}

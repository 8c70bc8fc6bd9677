import type { ScriptedReply, ScriptedUsage } from "./scripted-reply.ts";

/** A reply with every default filled in, ready to be encoded. */
export interface ResolvedCompletion {
  readonly id: string;
  readonly created: number;
  readonly model: string;
  readonly text: string;
  readonly reasoning: string;
  readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly argumentsJson: string }[];
  readonly usage: Required<ScriptedUsage>;
  readonly finishReason: string;
}

export interface CompletionContext {
  readonly requestIndex: number;
  readonly model: string;
  readonly createdSeconds: number;
  /** Size of the request's messages, for the default usage estimate. */
  readonly promptChars: number;
}

const estimateTokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

export function resolveCompletion(reply: ScriptedReply, context: CompletionContext): ResolvedCompletion {
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${context.requestIndex}_${i}`,
    name: call.name,
    argumentsJson: JSON.stringify(call.arguments),
  }));
  const text = reply.text ?? "";
  const reasoning = reply.reasoning ?? "";
  const outputChars =
    text.length + reasoning.length + toolCalls.reduce((n, c) => n + c.name.length + c.argumentsJson.length, 0);
  const usage = reply.usage ?? { input: estimateTokens(context.promptChars), output: estimateTokens(outputChars) };
  return {
    id: `chatcmpl-scripted-${context.requestIndex}`,
    created: context.createdSeconds,
    model: context.model,
    text,
    reasoning,
    toolCalls,
    usage: {
      input: usage.input,
      output: usage.output,
      cacheRead: usage.cacheRead ?? 0,
      cacheWrite: usage.cacheWrite ?? 0,
    },
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
  };
}

/**
 * OpenAI usage fields as OpenAI and OpenRouter document them: `prompt_tokens` counts every input token,
 * `cached_tokens` the cache reads (hits) and `cache_write_tokens` (OpenRouter) the writes. Pi 1.x's pi-ai reads
 * that back exactly; see `usageAsPiReads` for Pi 0.x.
 */
export function openAiUsage(usage: Required<ScriptedUsage>): Record<string, unknown> {
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output,
    total_tokens: prompt + usage.output,
    prompt_tokens_details: {
      cached_tokens: usage.cacheRead,
      ...(usage.cacheWrite > 0 ? { cache_write_tokens: usage.cacheWrite } : {}),
    },
  };
}

/**
 * The usage a Pi reads from `openAiUsage(usage)`. Pi 1.x reads it exactly. Pi 0.x's pi-ai took `cached_tokens`
 * to include the writes whenever `cache_write_tokens` is present, so it reports `cacheWrite` fewer cache reads
 * and as many more plain input tokens; without cache writes both read the same.
 */
export function usageAsPiReads(usage: Required<ScriptedUsage>, piVersion: string): Required<ScriptedUsage> {
  if (Number(piVersion.split(".")[0]) >= 1 || usage.cacheWrite === 0) return usage;
  const cacheRead = Math.max(0, usage.cacheRead - usage.cacheWrite);
  return { ...usage, cacheRead, input: usage.input + (usage.cacheRead - cacheRead) };
}

/** Splits text into word-sized pieces (whitespace stays attached) so clients see several deltas. */
export function textPieces(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? [];
}

/** The SSE `data:` payloads of a streamed completion, in order, ending with `[DONE]`. */
export function streamChunks(completion: ResolvedCompletion, includeUsage: boolean): string[] {
  const base = {
    id: completion.id,
    object: "chat.completion.chunk",
    created: completion.created,
    model: completion.model,
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): string =>
    JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const chunks = [chunk({ role: "assistant", content: "" })];
  for (const piece of textPieces(completion.reasoning)) chunks.push(chunk({ reasoning_content: piece }));
  for (const piece of textPieces(completion.text)) chunks.push(chunk({ content: piece }));
  completion.toolCalls.forEach((call, index) => {
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    // Two argument fragments, so the client's partial-JSON path is exercised as with real providers.
    const half = Math.ceil(call.argumentsJson.length / 2);
    for (const part of [call.argumentsJson.slice(0, half), call.argumentsJson.slice(half)]) {
      if (part !== "") chunks.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
    }
  });
  chunks.push(chunk({}, completion.finishReason));
  if (includeUsage) chunks.push(JSON.stringify({ ...base, choices: [], usage: openAiUsage(completion.usage) }));
  chunks.push("[DONE]");
  return chunks;
}

/** The body of a non-streamed completion. */
export function completionJson(completion: ResolvedCompletion): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: completion.text === "" ? null : completion.text,
  };
  if (completion.reasoning !== "") message.reasoning_content = completion.reasoning;
  if (completion.toolCalls.length > 0) {
    message.tool_calls = completion.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.argumentsJson },
    }));
  }
  return {
    id: completion.id,
    object: "chat.completion",
    created: completion.created,
    model: completion.model,
    choices: [{ index: 0, message, finish_reason: completion.finishReason }],
    usage: openAiUsage(completion.usage),
  };
}

export function errorJson(status: number, message: string): Record<string, unknown> {
  return { error: { message, type: "scripted_error", code: status } };
}

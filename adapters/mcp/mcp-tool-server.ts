import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { callToolSpec, type AnyHostToolSpec, type ToolRunContext } from "../../domain/shared/service/host-tool-spec.ts";
import type { Result, TypedError } from "../../domain/shared/model/result.ts";
import type { ToolReply } from "../../domain/shared/service/host-tool-spec.ts";
import { typedErrorText } from "../../domain/shared/model/typed-error-text.ts";

type ProgressToken = string | number;

/** A host-neutral spec as an MCP tool: its TypeBox schema is the input JSON Schema, its guidance joins the description. */
export function mcpToolFromSpec(spec: AnyHostToolSpec): Tool {
  const guidance =
    spec.promptGuidelines === undefined || spec.promptGuidelines.length === 0
      ? ""
      : `\n\nGuidance:\n${spec.promptGuidelines.map((g) => `- ${g}`).join("\n")}`;
  return {
    name: spec.name,
    title: spec.label,
    description: `${spec.description}${guidance}`,
    annotations: { title: spec.label, ...spec.effects },
    // TypeBox keeps its bookkeeping in non-enumerable keys: the JSON form is the plain schema.
    inputSchema: plainJson(spec.parameters) as Tool["inputSchema"],
  };
}

/**
 * The MCP answer for a tool's Result: the text for the model, the details (or the typed error) as
 * structured content. An expected failure is a tool error (`isError`), never a protocol error.
 */
export function callToolResult(result: Result<ToolReply<unknown>, TypedError>): CallToolResult {
  if (!result.ok) {
    return {
      isError: true,
      content: [{ type: "text", text: typedErrorText(result.error) }],
      structuredContent: { error: plainJson(result.error) },
    };
  }
  const details = plainJson(result.value.details);
  const structured =
    typeof details === "object" && details !== null && !Array.isArray(details)
      ? (details as Record<string, unknown>)
      : { value: details };
  return { content: [{ type: "text", text: result.value.text }], structuredContent: structured };
}

/**
 * Serves `specs` as the server's tools. Arguments go through each spec's own normaliser before anything
 * runs; an unknown tool name is a typed tool error. `warn` reports what nobody awaits (a lost progress note).
 */
export function serveToolSpecs(
  server: Server,
  specs: readonly AnyHostToolSpec[],
  warn: (message: string) => void,
): void {
  const byName = new Map<string, AnyHostToolSpec>();
  for (const spec of specs) {
    if (byName.has(spec.name)) throw new Error(`two tool specs are named ${spec.name}`);
    byName.set(spec.name, spec);
  }
  const tools = specs.map(mcpToolFromSpec);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const spec = byName.get(request.params.name);
    if (spec === undefined) {
      const known = [...byName.keys()].join(", ");
      return callToolResult({
        ok: false,
        error: {
          code: "unknown_tool",
          message: `There is no tool ${request.params.name} on this server (unknown_tool); it has ${known}.`,
        },
      });
    }
    const token = request.params._meta?.progressToken;
    const context: ToolRunContext = {
      signal: extra.signal,
      ...(token === undefined ? {} : { progress: progressReporter(token, extra.sendNotification, warn) }),
    };
    return callToolResult(await callToolSpec(spec, request.params.arguments ?? {}, context));
  });
}

type SendNotification = (notification: {
  method: "notifications/progress";
  params: { progressToken: ProgressToken; progress: number; message: string };
}) => Promise<void>;

/** Progress notes for a caller that asked for them (a client can reset its request timeout on each). */
function progressReporter(
  token: ProgressToken,
  send: SendNotification,
  warn: (message: string) => void,
): (message: string) => void {
  let progress = 0;
  return (message) => {
    progress += 1;
    send({ method: "notifications/progress", params: { progressToken: token, progress, message } }).catch(
      (cause: unknown) =>
        warn(`a progress notification could not be sent: ${cause instanceof Error ? cause.message : String(cause)}`),
    );
  };
}

function plainJson(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

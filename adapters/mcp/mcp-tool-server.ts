import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type CreateTaskResult,
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

/** Task-augmented calls (MCP Tasks, 2025-11-25), for the tools named in `tools`. */
export interface TaskCalls {
  readonly tools: ReadonlySet<string>;
  start(spec: AnyHostToolSpec, args: unknown, context: ToolRunContext): Promise<CreateTaskResult>;
}

/**
 * Serves `specs` as the server's tools. Arguments go through each spec's own normaliser before anything
 * runs; an unknown tool name is a typed tool error. `warn` reports what nobody awaits (a lost progress note).
 * With `tasks`, a client that declared the tasks capability at initialize sees those tools with
 * `execution.taskSupport: "optional"` and may call them task-augmented; any other client sees no task field
 * at all (a client was seen to drop every tool of a server whose listing carried them).
 */
export function serveToolSpecs(
  server: Server,
  specs: readonly AnyHostToolSpec[],
  warn: (message: string) => void,
  tasks?: TaskCalls,
): void {
  const byName = new Map<string, AnyHostToolSpec>();
  for (const spec of specs) {
    if (byName.has(spec.name)) throw new Error(`two tool specs are named ${spec.name}`);
    byName.set(spec.name, spec);
  }
  const tools = specs.map(mcpToolFromSpec);
  const taskTools = tools.map((tool) =>
    tasks?.tools.has(tool.name) === true ? { ...tool, execution: { taskSupport: "optional" as const } } : tool,
  );
  const declaresTasks = () => tasks !== undefined && server.getClientCapabilities()?.tasks !== undefined;
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: declaresTasks() ? taskTools : tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const spec = byName.get(request.params.name);
    if (request.params.task !== undefined && (spec === undefined || !declaresTasks() || !tasks?.tools.has(spec.name)))
      throw new McpError(
        ErrorCode.InvalidParams,
        `${request.params.name} cannot be called as a task here: task-augmented calls take ${[...(tasks?.tools ?? [])].join(", ")}, from a client that declared the tasks capability at initialize`,
      );
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
    const args = request.params.arguments ?? {};
    if (request.params.task !== undefined && tasks !== undefined) return tasks.start(spec, args, context);
    return callToolResult(await callToolSpec(spec, args, context));
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

import type { ToolDefinition } from "@mariozechner/pi-coding-agent";
import { ok } from "../../domain/shared/model/result.ts";
import type { AnyHostToolSpec } from "../../domain/shared/model/host-tool-spec.ts";
import { taskToolSpecs, type RuntimeAccess } from "../../domain/tasks/service/task-tool-specs.ts";
import { defineTool } from "./define-tool.ts";

export type { RuntimeAccess };

/** A host-neutral tool spec as a Pi tool: the reply text becomes the content, the details pass through. */
export function piToolFromSpec(spec: AnyHostToolSpec): ToolDefinition {
  return defineTool({
    name: spec.name,
    label: spec.label,
    description: spec.description,
    promptSnippet: spec.promptSnippet,
    ...(spec.promptGuidelines === undefined ? {} : { promptGuidelines: [...spec.promptGuidelines] }),
    parameters: spec.parameters,
    normalize: (raw) => spec.normalize(raw),
    run: async (args, _ctx, signal) => {
      const reply = await spec.run(args, signal === undefined ? {} : { signal });
      return reply.ok
        ? ok({ content: [{ type: "text" as const, text: reply.value.text }], details: reply.value.details })
        : reply;
    },
  });
}

/** bg_run, bg_status, bg_logs, bg_kill for Pi: completions wake the agent with a new turn. */
export function taskTools(runtime: RuntimeAccess): ToolDefinition[] {
  return taskToolSpecs({ runtime, now: () => Date.now(), delivery: "agent_turn" }).map(piToolFromSpec);
}

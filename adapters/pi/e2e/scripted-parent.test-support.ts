import type { ResponderInput, ScriptedReply } from "../../fake/scripted-model-server.ts";
import type { PiRecord } from "./pi-cli.ts";
import type { PiRpcClient } from "./rpc-client.ts";
import { locatePiCli } from "./pi-process.ts";

/** Lean `pi` flags for end-to-end tests: every pi start costs ~1 s on 2 cores, so nothing optional loads. */
/** Pi's CHANGELOG: 0.81.0 added tool usage to session totals; 0.73.1's notes say it does not count it. */
const [major = 0, minor = 0] = locatePiCli().version.split(".").map(Number);
export const PI_COUNTS_TOOL_USAGE = major > 0 || minor >= 81;

export const LEAN_PI_ARGS = [
  "--no-session",
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--offline",
];

/**
 * The scripted parent agent: a user prompt `call <tool> <json>` makes the model call that tool with
 * those arguments; after a tool result it answers "ok"; anything else it just notes.
 */
export function scriptedParent(input: ResponderInput): ScriptedReply {
  if (input.lastMessageRole === "tool") return { text: "ok" };
  const call = /^call (\w+) (.*)$/s.exec(input.lastUserText ?? "");
  return call ? { toolCalls: [{ name: call[1] ?? "", arguments: JSON.parse(call[2] ?? "{}") }] } : { text: "noted" };
}

export interface ToolOutcome {
  readonly isError: boolean;
  readonly text: string;
  readonly details: Record<string, unknown>;
  /** The result's top-level usage, as the tool_execution_end event carries it. */
  readonly usage?: unknown;
}

/** Has the scripted parent call one tool and returns that call's result. */
export async function callTool(
  pi: PiRpcClient,
  name: string,
  args: unknown,
  timeoutMs = 120_000,
): Promise<ToolOutcome> {
  const events = await pi.promptAndWait(`call ${name} ${JSON.stringify(args)}`, timeoutMs);
  const end = events.find((e) => e.type === "tool_execution_end") as
    | (PiRecord & {
        isError: boolean;
        result: { content: { text: string }[]; details: Record<string, unknown>; usage?: unknown };
      })
    | undefined;
  if (end === undefined) throw new Error(`the parent did not call ${name}: ${events.map((e) => e.type).join(", ")}`);
  const { content, details, usage } = end.result;
  return { isError: end.isError, text: content.map((c) => c.text).join(""), details, usage };
}

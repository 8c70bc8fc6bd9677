import type { SourceMessage } from "../../projection/model/source-message.ts";
import type { AdmissionInput } from "./delegate-admission.ts";
import { HOOK_CONTRACT_SCHEMA, type HookContractEvidence } from "./hook-contract.ts";
import type { RouteAttestation } from "./route-attestation.ts";

export const PI_VERSION = "0.73.1";

/** Evidence with every guarantee the guard needs (as observed on Pi 0.73.1). */
export function supportedEvidence(): HookContractEvidence {
  return {
    schema_version: HOOK_CONTRACT_SCHEMA,
    pi_version: PI_VERSION,
    driver: "test",
    context: {
      fires_before_every_model_call: true,
      fires_in_load_order: true,
      returned_messages_reach_provider: true,
      returned_messages_persisted: false,
      throw_blocks_provider_call: false,
      throw_later_handlers_still_run: true,
      abort_provider_request_sent: false,
      abort_terminates_run: true,
      abort_final_stop_reason: "aborted",
      abort_returned_messages_reach_later_handlers: true,
    },
    tool_result: {
      fires_before_transcript: true,
      chains_in_load_order: true,
      replacement_reaches_provider: true,
      original_reaches_provider: false,
      replacement_reaches_transcript: true,
      preserves_tool_call_id: true,
      preserves_role: true,
      preserves_is_error: true,
    },
  };
}

export const ACTIVE = "call_active";
export const SIBLING = "call_sibling";

export const SECRET = {
  thinking: "SECRET-THINKING-1",
  args: "SECRET-ARGS-2",
  result: "SECRET-RESULT-3",
  sibling: "SECRET-SIBLING-4",
  image: "SECRET-IMAGE-DATA-5",
};

/** A branch ending in one assistant message that launches two delegates. */
export function branch(): SourceMessage[] {
  return [
    {
      role: "user",
      content: [
        { type: "text", text: "Look at this screenshot  (two spaces kept)" },
        { type: "image", mimeType: "image/png", data: SECRET.image },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: SECRET.thinking },
        { type: "text", text: "Reading the file." },
        { type: "toolCall", id: "call_r", name: "read", arguments: { path: SECRET.args } },
      ],
    },
    { role: "toolResult", toolCallId: "call_r", toolName: "read", content: [{ type: "text", text: SECRET.result }] },
    { role: "assistant", content: [{ type: "text", text: "The file defines parse()." }] },
    { role: "user", content: "Now get two opinions." },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Launching." },
        { type: "toolCall", id: ACTIVE, name: "bg_delegate", arguments: { name: "a", prompt: "first" } },
        { type: "toolCall", id: SIBLING, name: "bg_delegate", arguments: { name: "b", prompt: SECRET.sibling } },
      ],
    },
  ];
}

export const MODELS = [
  { provider: "p", model: "big", contextWindow: 200_000 },
  { provider: "p", model: "small", contextWindow: 40_000 },
  { provider: "p", model: "nowindow", contextWindow: undefined },
];

export function admissionInput(overrides: Partial<AdmissionInput> = {}): AdmissionInput {
  return {
    hookContract: { evidence: supportedEvidence() },
    childPiVersion: PI_VERSION,
    rawArguments: { name: "review", prompt: "Review parse()." },
    isolationProblems: [],
    currentRoute: { provider: "p", model: "big" },
    availableModels: MODELS,
    conversation: { ok: true, cwd: "/work", systemPrompt: "You are the parent.", messages: branch() },
    activeToolCallId: ACTIVE,
    ...overrides,
  };
}

export function attestation(index: number, overrides: Partial<RouteAttestation> = {}): RouteAttestation {
  return {
    index,
    provider: "p",
    model: "big",
    response_model: null,
    stop_reason: "stop",
    usage: {
      input: 10,
      output: 5,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 15,
      cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 },
    },
    ...overrides,
  };
}

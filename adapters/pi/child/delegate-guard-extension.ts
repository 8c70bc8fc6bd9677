import { piToolFromSpec } from "../pi-tool.ts";
import { installReadConfinement } from "./read-confinement.ts";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { childTerminal } from "../../../domain/delegate/model/child-terminal.ts";
import { artifactPath, DELEGATE_ARTIFACT } from "../../../domain/delegate/model/delegate-artifacts.ts";
import { DelegateGuard, type Latch } from "../../../domain/delegate/model/delegate-guard.ts";
import { DELEGATE_CHILD_TOOLS } from "../../../domain/delegate/model/delegate-launch-plan.ts";
import { READ_ARTIFACT_MAX_LENGTH } from "../../../domain/delegate/model/delegate-limits.ts";
import { suppressContent, type ContextMessage } from "../../../domain/delegate/model/guard-context.ts";
import {
  receiptText,
  type SpillReceipt,
  type ToolResultBlock,
} from "../../../domain/delegate/model/guard-tool-output.ts";
import { buildResultPackage } from "../../../domain/delegate/model/result-package.ts";
import type { DelegateRunCode } from "../../../domain/delegate/model/delegate-error.ts";
import { canonicalJsonOf } from "../../../domain/shared/model/canonical-json.ts";
import { bootGuard, type GuardBoot } from "./delegate-guard-boot.ts";
import { writeAtomicSync } from "./delegate-guard-files.ts";
import { readArtifactTool } from "./delegate-read-artifact-tool.ts";

/**
 * The private extension of every `bg_delegate` child (`pi --mode json … --extension <this file>`).
 * At load it verifies the seed, task id and nonce; then it measures every model call before dispatch,
 * spills oversized tool results, enforces the turn, tool-call and aggregate-output limits, attests
 * every assistant message to the pinned route, and commits `result.json` only for a clean final
 * answer. Every hook fails closed: whatever goes wrong latches a failure, writes `child-terminal.json`,
 * aborts the run and strips payloads from the outgoing messages (a throw in `context` would NOT block
 * the call on Pi 0.73.1, and abort alone is not relied on either: see the hook-contract evidence).
 */
export default function delegateGuardExtension(pi: ExtensionAPI): void {
  installDelegateGuard(pi, process.env, (line) => process.stderr.write(`${line}\n`));
  installReadConfinement(pi);
}

interface Wiring {
  readonly guard: DelegateGuard;
  readonly boot: GuardBoot | undefined;
  readonly terminalTarget: { readonly dir: string; readonly taskId: string; readonly nonce: string } | undefined;
  readonly warn: (line: string) => void;
  terminalWritten: boolean;
}

export function installDelegateGuard(
  pi: ExtensionAPI,
  env: Readonly<Record<string, string | undefined>>,
  warn: (line: string) => void,
): DelegateGuard {
  const booted = bootGuard(env);
  const boot = booted.ok ? booted.value : undefined;
  const guard = new DelegateGuard({
    route: boot?.route ?? { provider: "", model: "" },
    capacityTokens: boot?.limits.capacityTokens ?? 0,
    maxTurns: boot?.limits.maxTurns ?? 0,
    maxToolCalls: boot?.limits.maxToolCalls ?? 0,
    perResultBytes: boot?.limits.perResultBytes ?? 0,
    aggregateToolOutputBytes: boot?.limits.aggregateToolOutputBytes ?? 0,
    expectedPrompt: boot?.prompt ?? "",
    expectedTools: DELEGATE_CHILD_TOOLS,
  });
  const failure = booted.ok ? undefined : booted.error;
  const target =
    boot !== undefined
      ? { dir: boot.artifactDir, taskId: boot.taskId, nonce: boot.launchNonce }
      : failure?.artifactDir !== undefined && failure.taskId !== undefined && failure.launchNonce !== undefined
        ? { dir: failure.artifactDir, taskId: failure.taskId, nonce: failure.launchNonce }
        : undefined;
  const w: Wiring = { guard, boot, terminalTarget: target, warn, terminalWritten: false };
  if (failure !== undefined) persistLatch(w, guard.latch("seed_hash_mismatch", failure.reason, "load"));
  pi.registerTool(
    piToolFromSpec(
      pi,
      readArtifactTool(boot?.artifactDir, boot?.limits.readArtifactMaxLength ?? READ_ARTIFACT_MAX_LENGTH),
    ),
  );
  registerHooks(pi, w);
  return guard;
}

function registerHooks(pi: ExtensionAPI, w: Wiring): void {
  pi.on("context", (event, ctx) => {
    const messages = event.messages as unknown as ContextMessage[];
    const blockAll = () => ({ messages: suppressContent(messages, true) as unknown as typeof event.messages });
    return failClosed(w, ctx, "context", blockAll, () => {
      const isolation = w.guard.onToolRegistry(pi.getActiveTools());
      if (isolation !== undefined) {
        stop(w, ctx, isolation);
        return blockAll();
      }
      const decision = w.guard.onContext(ctx.getSystemPrompt(), messages);
      if (decision.action === "dispatch") return undefined;
      stop(w, ctx, decision.latch);
      return { messages: decision.messages as unknown as typeof event.messages };
    });
  });
  pi.on("tool_call", (event, ctx) => {
    const blocked = () => ({ block: true, reason: "the delegate guard failed closed" });
    return failClosed(w, ctx, "tool_call", blocked, () => {
      const reason = w.guard.onToolCall(event.toolName);
      if (reason === undefined) return undefined;
      const latch = w.guard.latched;
      if (latch !== undefined) stop(w, ctx, latch);
      return { block: true, reason };
    });
  });
  pi.on("tool_result", (event, ctx) => {
    const withheld = () => withheldResult(w.guard.latched?.code ?? "artifact_error");
    return failClosed(w, ctx, "tool_result", withheld, () =>
      onToolResult(w, ctx, event.toolCallId, event.content as unknown as ToolResultBlock[]),
    );
  });
  pi.on("message_end", (event, ctx) => {
    failClosed(
      w,
      ctx,
      "message_end",
      () => undefined,
      () => {
        if (event.message.role !== "assistant") return undefined;
        const latch = w.guard.onAssistantMessage(event.message);
        if (latch !== undefined) stop(w, ctx, latch);
        return undefined;
      },
    );
  });
  pi.on("agent_end", (event, ctx) => {
    failClosed(
      w,
      ctx,
      "agent_end",
      () => undefined,
      () => {
        const last = [...event.messages].reverse().find((m) => m.role === "assistant");
        const decision = w.guard.onAgentEnd(last as Parameters<DelegateGuard["onAgentEnd"]>[0]);
        if (decision.action === "terminal") persistLatch(w, decision.latch);
        if (decision.action === "commit") commit(w, ctx, decision.answer);
        return undefined;
      },
    );
  });
  pi.on("session_shutdown", () => {
    try {
      const latch = w.guard.onShutdown();
      if (latch !== undefined) persistLatch(w, latch);
    } catch (error) {
      w.warn(`[delegate-guard] shutdown bookkeeping failed: ${describe(error)}`);
    }
  });
}

function onToolResult(w: Wiring, ctx: ExtensionContext, toolCallId: string, content: ToolResultBlock[]) {
  const decision = w.guard.onToolResult(content);
  if (decision.action === "keep") return undefined;
  if (decision.action === "withhold") {
    stop(w, ctx, decision.latch);
    return withheldResult(decision.latch.code);
  }
  const boot = w.boot;
  const { payload } = decision;
  try {
    if (boot === undefined) throw new Error("no verified artifact directory");
    writeAtomicSync(artifactPath(boot.artifactDir, payload.artifact), payload.bytes);
  } catch (error) {
    stop(
      w,
      ctx,
      w.guard.latch(
        "artifact_spill_failed",
        `the ${payload.bytes.length}-byte result of ${toolCallId} could not be spilled: ${describe(error)}`,
        "tool_result",
      ),
    );
    return withheldResult("artifact_spill_failed");
  }
  const receipt: SpillReceipt = {
    artifact: payload.artifact,
    bytes: payload.bytes.length,
    sha256: payload.sha256,
    format: payload.format,
    tool_call_id: toolCallId,
  };
  const text = receiptText(receipt, boot.limits.perResultBytes, boot.limits.readArtifactMaxLength);
  return { content: [{ type: "text" as const, text }], details: { delegate_spill: receipt } };
}

function commit(w: Wiring, ctx: ExtensionContext, answer: string): void {
  const boot = w.boot;
  if (boot === undefined) return;
  const built = buildResultPackage(
    { taskId: boot.taskId, launchNonce: boot.launchNonce, seedSha256: boot.seedSha256, route: boot.route },
    answer,
    w.guard.attestations,
    w.guard.counters(),
  );
  if (!built.ok) {
    persistLatch(w, w.guard.latch(built.error.code, built.error.message, "agent_end"));
    return;
  }
  try {
    // The rename inside is the commit point.
    writeAtomicSync(
      artifactPath(boot.artifactDir, DELEGATE_ARTIFACT.result),
      new TextEncoder().encode(built.value.json),
    );
    w.guard.markCommitted();
  } catch (error) {
    stop(
      w,
      ctx,
      w.guard.latch("artifact_error", `result.json could not be committed: ${describe(error)}`, "agent_end"),
    );
  }
}

/** Runs a hook body; any throw latches `artifact_error`, aborts the run and answers with `fallback`. */
function failClosed<T>(w: Wiring, ctx: ExtensionContext, hook: string, fallback: () => T, body: () => T): T {
  try {
    return body();
  } catch (error) {
    stop(w, ctx, w.guard.latch("artifact_error", `the delegate guard's ${hook} hook failed: ${describe(error)}`, hook));
    return fallback();
  }
}

function stop(w: Wiring, ctx: ExtensionContext, latch: Latch): void {
  persistLatch(w, latch);
  try {
    // Not awaited: Pi's abort waits for the run to go idle, and the run is waiting on this hook.
    void Promise.resolve(ctx.abort() as unknown).catch(() => undefined);
  } catch (error) {
    w.warn(`[delegate-guard] abort failed: ${describe(error)}`);
  }
}

/** Writes child-terminal.json once, for the first latch. The latch itself holds whatever happens here. */
function persistLatch(w: Wiring, latch: Latch): void {
  if (w.terminalWritten) return;
  w.terminalWritten = true;
  w.warn(`[delegate-guard] ${latch.code} (${latch.hook}): ${latch.reason}`);
  const target = w.terminalTarget;
  if (target === undefined) return;
  try {
    const record = childTerminal(target.taskId, target.nonce, latch, w.guard.counters());
    writeAtomicSync(
      artifactPath(target.dir, DELEGATE_ARTIFACT.childTerminal),
      new TextEncoder().encode(canonicalJsonOf(record)),
    );
  } catch (error) {
    w.warn(`[delegate-guard] child-terminal.json could not be written: ${describe(error)}`);
  }
}

function withheldResult(code: DelegateRunCode) {
  return {
    content: [
      { type: "text" as const, text: `[delegate guard] this tool result was withheld: the run stopped (${code}).` },
    ],
    details: { delegate_withheld: code },
  };
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

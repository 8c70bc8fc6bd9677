import { TOOL_CALL_LOG_ENV } from "../../domain/fusion/model/candidate-launch.ts";
import { buildToolAuditRecord, toolAuditLine } from "../../domain/fusion/model/tool-audit-record.ts";
import type { FileCommitter } from "../../ports/file-committer.ts";
import type { ChildStageResult, ChildStageSpec } from "../../ports/fusion-child-runner.ts";

/** Replaces the audit log an audited child writes: these exact bytes, or no file at all. */
export type ScriptedAuditLog = { readonly bytes: string } | { readonly missing: true };

/** What the real audit extension leaves for an audited child: one valid line per call, unless scripted otherwise. */
export async function writeAuditLog(
  files: FileCommitter | undefined,
  spec: ChildStageSpec,
  toolCalls: number,
  scripted: ScriptedAuditLog | undefined,
): Promise<void> {
  const path = spec.env?.[TOOL_CALL_LOG_ENV];
  if (path === undefined || files === undefined) return;
  if (scripted !== undefined && "missing" in scripted) return;
  const lines = Array.from({ length: toolCalls }, (_, i) =>
    toolAuditLine(
      buildToolAuditRecord(i + 1, {
        toolName: "read",
        toolCallId: `call_${spec.prefix}_${i + 1}`,
        arguments: { value: { path: `file-${i + 1}.ts` } },
        resultContent: [{ type: "text", text: `contents ${i + 1}` }],
        resultDetails: undefined,
        isError: false,
        durationMs: 1,
      }),
    ),
  );
  const written = await files.replaceAtomic(path, new TextEncoder().encode(scripted?.bytes ?? lines.join("")));
  if (!written.ok) throw new Error(`FakeFusionChildRunner: cannot write ${path}: ${written.error.message}`);
}

/** The runner's own artifacts: one frame per line in the child's wire names, and the (empty) stderr. */
export async function writeArtifacts(
  files: FileCommitter | undefined,
  spec: ChildStageSpec,
  result: ChildStageResult | undefined,
): Promise<void> {
  if (files === undefined) return;
  const lines = (result?.frames ?? []).map((f) =>
    JSON.stringify({
      provider: f.provider,
      model: f.model,
      stop_reason: f.stopReason,
      text_bytes: f.textBytes,
      text_sha256: f.textSha256,
      tool_calls: f.toolCalls,
      usage: f.usage,
    }),
  );
  const base = `${spec.runDir}/${spec.prefix}`;
  for (const [path, text] of [
    [`${base}.events.jsonl`, lines.map((line) => `${line}\n`).join("")],
    [`${base}.stderr.txt`, ""],
  ] as const) {
    const written = await files.replaceAtomic(path, new TextEncoder().encode(text));
    if (!written.ok) throw new Error(`FakeFusionChildRunner: cannot write ${path}: ${written.error.message}`);
  }
}

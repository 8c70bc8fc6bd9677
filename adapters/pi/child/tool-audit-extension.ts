import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { appendAuditLine, createAuditFile } from "./tool-audit-file.ts";
import { ToolAuditTracker } from "./tool-audit-tracker.ts";

export const TOOL_CALL_LOG_ENV = "PI_FUSION_TOOL_CALL_LOG_PATH";

/**
 * Private extension of inspect and research Fusion candidates (`--extension <this file>`, passed LAST so
 * its `tool_result` handler sees the result after every other extension's patch). With
 * `PI_FUSION_TOOL_CALL_LOG_PATH` set, it creates that file at load, before any tool can run, so "no file"
 * means "audit missing" and never "zero calls"; then it appends one fsynced line per completed call. A
 * file that cannot be created (it exists, or its directory is missing) fails the load, and Pi exits 1.
 */
export default function toolAuditExtension(pi: ExtensionAPI): void {
  const path = process.env[TOOL_CALL_LOG_ENV];
  if (path === undefined) return;
  if (path.trim() === "")
    throw new Error(`${TOOL_CALL_LOG_ENV} is set but empty; give the audit log's absolute path or unset it`);
  installToolAudit(pi, path);
}

export function installToolAudit(pi: ExtensionAPI, path: string): ToolAuditTracker {
  try {
    createAuditFile(path);
  } catch (error) {
    throw new Error(
      `cannot create the tool-call audit log ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const tracker = new ToolAuditTracker(
    (line) => appendAuditLine(path, line),
    () => performance.now(),
    (message) => process.stderr.write(`${message}\n`),
  );
  pi.on("tool_execution_start", (event) => tracker.started(event));
  pi.on("tool_call", (event) => {
    const blocked = tracker.executing(event.toolCallId);
    return blocked === undefined ? undefined : { block: true, reason: blocked };
  });
  pi.on("tool_result", (event) => tracker.finished(event));
  pi.on("tool_execution_end", (event) =>
    tracker.ended({ ...event, content: event.result?.content, details: event.result?.details }),
  );
  return tracker;
}

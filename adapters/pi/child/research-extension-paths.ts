import { fileURLToPath } from "node:url";

/**
 * Absolute paths of the research and audit child extensions, for the parent's `--extension` flags.
 * Order in argv: the Fusion metadata extension first, then the web-fetch extension (research only), then
 * the audit extension LAST, so its `tool_result` handler sees each result after any other patch.
 */
export function fusionWebFetchExtensionPath(): string {
  return fileURLToPath(new URL("./fusion-web-fetch-child-extension.ts", import.meta.url));
}

export function toolAuditExtensionPath(): string {
  return fileURLToPath(new URL("./tool-audit-extension.ts", import.meta.url));
}

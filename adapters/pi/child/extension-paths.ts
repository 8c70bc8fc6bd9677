import { fileURLToPath } from "node:url";

/**
 * Absolute paths of the private child extensions, for the parent's `--extension` flags. Order in a
 * candidate's argv: the Fusion metadata extension first, then the web-fetch extension (research only), then
 * the audit extension LAST, so its `tool_result` handler sees each result after any other patch.
 */
export function fusionChildExtensionPath(): string {
  return fileURLToPath(new URL("./fusion-child-extension.ts", import.meta.url));
}

export function anthropicSanitizerExtensionPath(): string {
  return fileURLToPath(new URL("./anthropic-sanitizer-extension.ts", import.meta.url));
}

export function fusionWebFetchExtensionPath(): string {
  return fileURLToPath(new URL("./fusion-web-fetch-child-extension.ts", import.meta.url));
}

export function toolAuditExtensionPath(): string {
  return fileURLToPath(new URL("./tool-audit-extension.ts", import.meta.url));
}

import { fileURLToPath } from "node:url";

/** Absolute paths of the private child extensions, for the parent to pass with `--extension`. */
export function fusionChildExtensionPath(): string {
  return fileURLToPath(new URL("./fusion-child-extension.ts", import.meta.url));
}

export function anthropicSanitizerExtensionPath(): string {
  return fileURLToPath(new URL("./anthropic-sanitizer-extension.ts", import.meta.url));
}

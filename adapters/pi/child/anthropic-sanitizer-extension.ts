import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { removePiDocumentationLines } from "./anthropic-system-prompt-lines.ts";

/**
 * Second private extension, passed only to Fusion children routed to the `anthropic` provider: they run
 * with `--no-extensions`, so they cannot inherit a sanitizer the parent discovered. Rewrites the system
 * prompt before each agent run without Pi's documentation block (see anthropic-system-prompt-lines.ts).
 * With a stage `--system-prompt`, neither Pi 0.73.1 nor Pi 1.6.0 adds that block (checked by dumping the prompt
 * of both), so for Fusion stages this is a guard for hosts that would; delegates run on Pi's default system
 * prompt, which carries the block, and there it is removed.
 */
export default function anthropicSanitizerExtension(pi: ExtensionAPI): void {
  pi.on("before_agent_start", (event) => {
    const sanitized = removePiDocumentationLines(event.systemPrompt);
    return sanitized.removed.length > 0 ? { systemPrompt: sanitized.prompt } : undefined;
  });
}

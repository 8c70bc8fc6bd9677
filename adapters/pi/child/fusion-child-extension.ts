import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { buildResultFrame, frameLine, type AssistantMessageView } from "./fusion-child-result.ts";
import { installReadConfinement } from "./read-confinement.ts";

/**
 * Private extension of every Fusion child (`pi --mode text … --extension <this file>`). On each finalised
 * assistant message it writes one metadata frame line to stderr; the parent strips those lines from the
 * stderr it keeps. It also confines the stage's read tools to its read scope (read-confinement.ts). Only
 * `import type` from Pi (erased): at run time this file needs node builtins only.
 *
 * stderr is a pipe here, which Node writes synchronously on POSIX, so a frame is complete before the
 * process can exit and is never split by other stderr output of this process.
 */
export default function fusionChildExtension(pi: ExtensionAPI): void {
  installReadConfinement(pi);
  pi.on("message_end", (event) => {
    const frame = buildResultFrame(event.message as AssistantMessageView);
    if (frame !== undefined) process.stderr.write(frameLine(frame));
  });
}

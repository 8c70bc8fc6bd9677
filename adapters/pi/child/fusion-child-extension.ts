import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import {
  FUSION_CHILD_RESULT_MARKER,
  FUSION_CHILD_WORKING_FRAME,
} from "../../../domain/fusion/model/fusion-child-protocol.ts";
import { buildResultFrame, frameLine, type AssistantMessageView } from "./fusion-child-result.ts";
import { installReadConfinement } from "./read-confinement.ts";

/**
 * Private extension of every Fusion child (`pi --mode text … --extension <this file>`). On each finalised
 * assistant message it writes one metadata frame line to stderr, and once, when its agent loop starts, the
 * `working` frame; the parent strips those lines from the stderr it keeps. It also confines the stage's read
 * tools to its read scope (read-confinement.ts). Only `import type` from Pi (erased): at run time this file
 * needs node builtins and the package's own modules only.
 *
 * stderr is a pipe here, which Node writes synchronously on POSIX, so a frame is complete before the
 * process can exit and is never split by other stderr output of this process.
 */
export default function fusionChildExtension(pi: ExtensionAPI): void {
  installReadConfinement(pi);
  let working = false;
  pi.on("agent_start", () => {
    if (working) return;
    working = true;
    process.stderr.write(`${FUSION_CHILD_RESULT_MARKER}${FUSION_CHILD_WORKING_FRAME}\n`);
  });
  pi.on("message_end", (event) => {
    const frame = buildResultFrame(event.message as AssistantMessageView);
    if (frame !== undefined) process.stderr.write(frameLine(frame));
  });
}

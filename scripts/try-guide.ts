// The on-screen guide of `npm run try`, as a tiny Pi extension: Pi 1.x clears the terminal when it starts, so a
// guide printed before it would be gone. It stays below the editor for the whole session.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Container, Text } from "@mariozechner/pi-tui";
import { BRAINSTORM_PROMPT, VALIDATE_PROMPT } from "./demo-fusion.ts";
import { BUILD_PROMPT } from "./demo-task-turns.ts";

export const GUIDE = [
  "pi-background-tasks, offline: this Pi has the package and a scripted model (no API key). Try:",
  "  /bg sleep 3; echo hello          a background task of your own; /jobs lists it, /logs <id> reads it",
  "  /tasks                           the task dock (Esc closes it)",
  `  ${BUILD_PROMPT}`,
  "                                   the model starts a task, ends its turn, and the notice wakes it",
  `  ${BRAINSTORM_PROMPT}`,
  `  ${VALIDATE_PROMPT}`,
  "                                   Fusion: five real pi children each (scripted answers)",
  "Quit with Ctrl+C twice (or /quit); the working directory is removed then.",
];

export default function tryGuide(pi: ExtensionAPI): void {
  pi.on("session_start", async (_event, ctx) => {
    if (!ctx.hasUI) return;
    ctx.ui.setWidget(
      "pi-background-tasks.try-guide",
      (_tui, theme) => {
        const box = new Container();
        for (const line of GUIDE) box.addChild(new Text(theme.fg("dim", line), 1, 0));
        return box;
      },
      { placement: "belowEditor" },
    );
  });
}

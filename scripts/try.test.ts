import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { startTmux, type TmuxSession } from "../adapters/pi/e2e/tmux-session.ts";
import { BUILD_PROMPT } from "./demo-task-turns.ts";
import { GUIDE } from "./try-guide.ts";

// `npm run try` in a real terminal (tmux): the guide, the interactive Pi with the package on the scripted
// model, a command and a prompt that work, and nothing left behind after quitting.

const TRY = fileURLToPath(new URL("try.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("..", import.meta.url));
let screen: TmuxSession | undefined;

afterAll(() => screen?.kill());

describe("npm run try (the real TUI, offline)", { timeout: 180_000 }, () => {
  it("shows its guide, runs /bg and a prompt that starts a task, and removes its directory on quit", async () => {
    execFileSync("tmux", ["-V"]);
    const dir = mkdtempSync(join(tmpdir(), "pi-bg-try-test-"));
    screen = startTmux({
      socketPath: join(dir, "tmux.sock"),
      name: "pi-bg-try",
      width: 140,
      height: 50,
      cwd: ROOT, // where `--import tsx` resolves, as under npm run
      env: {},
      argv: [process.execPath, "--import", "tsx", TRY],
    });
    await screen.waitFor(/scripted-a/, 60_000);
    const start = await screen.waitFor(/Quit with Ctrl\+C twice/, 20_000);
    expect(start).toContain(GUIDE[0]);
    expect(start).toContain(GUIDE.at(-1));
    const work = /^ *(\/\S*pi-bg-try-\w+)/m.exec(start)?.[1] ?? ""; // the working directory in Pi's footer
    expect(existsSync(work)).toBe(true);
    screen.type("/bg echo hello-from-try");
    screen.keys("Enter");
    await screen.waitFor(/\[bg completed\] echo hello-from-try/, 20_000);
    screen.type(BUILD_PROMPT);
    screen.keys("Enter");
    await screen.waitFor(/printed 'build ok'\. Done\./, 60_000);
    screen.keys("C-c");
    screen.keys("C-c");
    for (let i = 0; i < 100 && existsSync(work); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(work)).toBe(false);
  });
});

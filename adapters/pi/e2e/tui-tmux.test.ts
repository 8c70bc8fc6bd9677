import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../../fake/scripted-model-server.ts";
import { locatePiCli } from "./pi-process.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";
import { startTmux, type TmuxSession } from "./tmux-session.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { TASK_METADATA_ENTRY } from "../../../domain/hygiene/model/prune-policy.ts";

let server: ScriptedModelServer;
let screen: TmuxSession;
let cwd: string;

/** The TUI can only be checked on a real terminal: a missing tmux is a loud failure, never a skip. */
function requireTmux(): void {
  try {
    execFileSync("tmux", ["-V"]);
  } catch (error) {
    throw new Error(
      `tmux is required for the interactive TUI tests (Debian: apt-get install tmux; .ci/run installs it): ${String(error)}`,
    );
  }
}

function bgRun(name: string, command: string): ScriptedReply {
  return { toolCalls: [{ name: "bg_run", arguments: { name, command, isAgent: false } }] };
}

async function prompt(text: string): Promise<void> {
  screen.type(text);
  screen.keys("Enter");
}

function taskMetadata(name: string): { id: string; pid: number; status: string } {
  const root = join(cwd, ".pi", "tasks");
  const dirs = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()); // not .gitignore
  for (const { name: dir } of dirs) {
    for (const file of readdirSync(join(root, dir)).filter((f) => TASK_METADATA_ENTRY.test(f))) {
      const meta = JSON.parse(readFileSync(join(root, dir, file), "utf8")) as {
        id: string;
        pid: number;
        status: string;
        name: string;
      };
      if (meta.name === name) return meta;
    }
  }
  throw new Error(`no task named ${name} under ${root}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  requireTmux();
  server = await startScriptedModelServer();
  cwd = mkdtempSync(join(tmpdir(), "bg-tmux-"));
  const agent = await writeIsolatedAgentDir({ dir: join(cwd, ".agent"), baseUrl: server.baseUrl });
  screen = startTmux({
    socketPath: join(cwd, "tmux.sock"),
    name: "pi-bg-tui",
    width: 120,
    height: 40,
    cwd,
    env: { ...agent.env, PI_BG_DOCK_SHORTCUT: "shift+down" },
    argv: [process.execPath, locatePiCli().cliPath, "-e", PACKAGE_ROOT, ...LEAN_PI_ARGS],
  });
  // Pi is ready when its footer shows the scripted model.
  await screen.waitFor(/scripted-a/, 30_000);
});

afterAll(async () => {
  screen?.kill();
  await server?.close();
});

describe("interactive Pi under tmux: footer, dock and notification", () => {
  it("the footer shows a running task, then the completion line renders and the footer counts it as done", async () => {
    server.enqueue(bgRun("tmux quick", "sleep 3; echo quick-done"), { text: "quick started" });
    await prompt("start the quick task");
    await screen.waitFor(/bg 1 running \d+s · Shift↓/);
    await screen.waitFor(/\[bg completed\] tmux quick \(b[0-9a-f]{8}\)/);
    const after = await screen.waitFor(/bg 1 done · Shift↓ · \/bg-clear/);
    expect(after).toMatch(/output: \.pi\/tasks\/\S+\.output/);
  });

  it("/tasks opens the dock, k stops the task, the footer and the notification follow", async () => {
    server.enqueue(bgRun("tmux long", "sleep 60"), { text: "long started" });
    await prompt("start the long task");
    await screen.waitFor(/bg 1 running \d+s · 1 done/);
    const { pid } = taskMetadata("tmux long");
    expect(alive(pid)).toBe(true);

    await prompt("/tasks");
    const dock = await screen.waitFor(/Background tasks · 1 running · 1 done/);
    expect(dock).toMatch(/› ● b[0-9a-f]{8} running +\d+s +tmux long/);
    expect(dock).toMatch(/bg 1 running \d+s · 1 done · focused/);

    screen.keys("k");
    await screen.waitFor(/Stopped tmux long \(b[0-9a-f]{8}\)\./);
    await screen.waitFor(/bg 1 stopped · 1 done · focused/);
    expect(alive(pid)).toBe(false);
    expect(taskMetadata("tmux long").status).toBe("killed");

    screen.keys("Escape");
    await screen.waitFor(/bg 1 stopped · 1 done · Shift↓ · \/bg-clear/);
    await screen.waitFor(/\[bg killed\] tmux long \(b[0-9a-f]{8}\)/);
  });

  it("the shortcut opens the dock on the list; Enter shows the detail and marks the task seen", async () => {
    screen.keys("S-Down");
    await screen.waitFor(/Background tasks · 0 running · 1 stopped · 1 done/);
    screen.keys("Enter");
    const detail = await screen.waitFor(/Output · end/);
    expect(detail).toMatch(/Command\s+\S/);
    expect(detail).not.toMatch(/not reported by this background task/); // a shell task has no telemetry rows
    screen.keys("q");
    await screen.waitFor(/bg 1 done · Shift↓ · \/bg-clear|bg 1 stopped · Shift↓ · \/bg-clear/);
    await prompt("/bg-clear");
    await screen.waitFor(/Marked 1 finished background task as seen\./);
    const cleared = screen.capture();
    expect(cleared).not.toMatch(/^bg \d/m);
  });

  it("command answers stay on screen: the /jobs listing is still there after /bg started a task", async () => {
    await prompt("/jobs");
    await screen.waitFor(/■ b[0-9a-f]{8}  killed .* tmux long/);
    await prompt("/bg --name tmux-echo -- echo hi");
    const after = await screen.waitFor(/Started tmux-echo \(b[0-9a-f]{8}\)/);
    expect(after).toMatch(/■ b[0-9a-f]{8}  killed .* tmux long/);
    expect(after).toMatch(/✓ b[0-9a-f]{8}  completed .* tmux quick/);
  });

  it("Ctrl+Alt+C does what /bg-clear does", async () => {
    await screen.waitFor(/\[bg completed\] tmux-echo/);
    await screen.waitFor(/bg 1 done · Shift↓ · \/bg-clear/);
    screen.keys("C-M-c");
    await screen.waitFor(/Marked 1 finished background task as seen\./);
    for (let i = 0; i < 50 && /^bg \d/m.test(screen.capture()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(screen.capture()).not.toMatch(/^bg \d/m);
  });

  it("/fusion-models refuses a route below Fusion's minimum window, naming the requirement, and saves one that fits", async () => {
    await prompt("/fusion-models");
    await screen.waitFor(/Fusion models[\s\S]*Save/);
    screen.keys("Enter"); // the first candidate slot
    await screen.waitFor(/filter: \(type to filter\)/);
    screen.type("scripted-a");
    await screen.waitFor(/> scripted\/scripted-a/);
    screen.keys("Enter");
    // The footer's scripted-a has a 32,000-token window; the refusal is wrapped, never cut.
    await screen.waitFor(
      /Not chosen: scripted\/scripted-a has a 32000-token context window;[\s\S]*need[\s\S]*at[\s\S]*least[\s\S]*45056/,
    );
    for (let i = 0; i < "scripted-a".length; i++) screen.keys("BSpace");
    screen.type("scripted-c");
    await screen.waitFor(/> scripted\/scripted-c/);
    screen.keys("Enter");
    await screen.waitFor(/Candidate 1[^\n]*scripted\/scripted-c/);
    for (let i = 0; i < 5; i++) screen.keys("Down"); // past the five slots to Save
    screen.keys("Enter");
    await screen.waitFor(/Fusion models saved: candidates scripted\/scripted-c/);
    const saved = JSON.parse(readFileSync(join(cwd, ".agent", "fusion-models.json"), "utf8"));
    expect(saved.candidates[0]).toBe("scripted/scripted-c");
  });
});

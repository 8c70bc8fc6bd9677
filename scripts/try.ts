// `npm run try`: this package in the real interactive Pi, offline. The embedded scripted model answers the
// parent (a prompt starts a background build, the notice wakes it to read the log) and every Fusion stage;
// the agent dir is a throwaway one, so nothing of the user's Pi set-up is read or changed.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeIsolatedAgentDir } from "../adapters/fake/isolated-agent-dir.ts";
import { startScriptedModelServer } from "../adapters/fake/scripted-model-server.ts";
import { locatePiCli } from "../adapters/pi/e2e/pi-process.ts";
import { BRAINSTORM_PROMPT, prepareFusionDemo, VALIDATE_PROMPT, withFusion } from "./demo-fusion.ts";
import { BUILD_PROMPT, taskTurns } from "./demo-task-turns.ts";

const PACKAGE_ROOT = new URL("..", import.meta.url).pathname;

const GUIDE = [
  "pi-background-tasks, offline: an interactive Pi with this package and a scripted model (no API key).",
  "Try, in Pi:",
  "  /bg sleep 3; echo hello          a background task of your own; /jobs lists it, /logs <id> reads it",
  "  /tasks                           the task dock (Esc closes it)",
  `  ${BUILD_PROMPT}`,
  "                                   the model starts a task, ends its turn, and the notice wakes it",
  `  ${BRAINSTORM_PROMPT}`,
  `  ${VALIDATE_PROMPT}`,
  "                                   Fusion: five real pi children each (scripted answers)",
  "Quit Pi with Ctrl+C twice (or /quit); the working directory is removed then.",
];

const work = mkdtempSync(join(tmpdir(), "pi-bg-try-"));
const server = await startScriptedModelServer();
server.setResponder(withFusion(taskTurns));
const agent = await writeIsolatedAgentDir({ dir: join(work, ".agent"), baseUrl: server.baseUrl });
prepareFusionDemo(agent.dir, work);
console.log(`${GUIDE.join("\n")}\n\nWorking directory: ${work}\n`);
const pi = spawn(process.execPath, [locatePiCli().cliPath, "--no-session", "--offline", "-e", PACKAGE_ROOT], {
  cwd: work,
  env: { ...process.env, ...agent.env },
  stdio: "inherit",
});
const code = await new Promise<number>((resolve) => pi.once("exit", (exit) => resolve(exit ?? 1)));
await server.close();
rmSync(work, { recursive: true, force: true });
process.exit(code);

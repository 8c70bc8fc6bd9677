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
import { prepareFusionDemo, withFusion } from "./demo-fusion.ts";
import { taskTurns } from "./demo-task-turns.ts";

const PACKAGE_ROOT = new URL("..", import.meta.url).pathname;
const GUIDE = new URL("try-guide.ts", import.meta.url).pathname; // shown inside Pi

const work = mkdtempSync(join(tmpdir(), "pi-bg-try-"));
const server = await startScriptedModelServer();
server.setResponder(withFusion(taskTurns));
const agent = await writeIsolatedAgentDir({ dir: join(work, ".agent"), baseUrl: server.baseUrl });
prepareFusionDemo(agent.dir, work);
console.log(`Starting Pi offline in ${work} …`);
const pi = spawn(
  process.execPath,
  [locatePiCli().cliPath, "--no-session", "--offline", "-e", PACKAGE_ROOT, "-e", GUIDE],
  {
    cwd: work,
    env: { ...process.env, ...agent.env },
    stdio: "inherit",
  },
);
const code = await new Promise<number>((resolve) => pi.once("exit", (exit) => resolve(exit ?? 1)));
await server.close();
rmSync(work, { recursive: true, force: true });
process.exit(code);

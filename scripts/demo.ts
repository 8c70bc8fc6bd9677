// The offline demo: real `pi --mode rpc` with this package, driven by the embedded scripted model
// (no API key). The model starts a background task, ends its turn, is woken by the completion
// notice, and reads the task's log. Then the Fusion part (demo-fusion.ts): a brainstorm and a background
// review, each by five real `pi` children.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeIsolatedAgentDir } from "../adapters/fake/isolated-agent-dir.ts";
import { startScriptedModelServer } from "../adapters/fake/scripted-model-server.ts";
import type { PiRecord } from "../adapters/pi/e2e/pi-cli.ts";
import { startPiRpc } from "../adapters/pi/e2e/rpc-client.ts";
import { prepareFusionDemo, runFusionDemo, withFusion } from "./demo-fusion.ts";
import { BUILD_PROMPT, taskTurns } from "./demo-task-turns.ts";

const PACKAGE_ROOT = new URL("..", import.meta.url).pathname;
const say = (line: string) => console.log(line);

function show(event: PiRecord): void {
  if (event.type === "tool_execution_start")
    say(`  → model calls ${String(event.toolName)} ${JSON.stringify(event.args)}`);
  if (event.type === "tool_execution_end") {
    const text = (event.result as { content: { text: string }[] }).content.map((c) => c.text).join("");
    say(`  ← ${String(event.toolName)}${event.isError ? " (error)" : ""}:\n${indent(text)}`);
  }
  if (event.type !== "message_end") return;
  const message = event.message as { role: string; customType?: string; content: unknown };
  if (message.role === "custom")
    say(`  ⏰ notification (${message.customType}) wakes the agent:\n${indent(String(message.content))}`);
  if (message.role === "assistant") {
    const text = (message.content as { type: string; text?: string }[])
      .filter((b) => b.type === "text")
      .map((b) => b.text)
      .join("");
    if (text) say(`  🤖 ${text}`);
  }
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((l) => `      ${l}`)
    .join("\n");

const work = mkdtempSync(join(tmpdir(), "pi-bg-demo-"));
const server = await startScriptedModelServer();
server.setResponder(withFusion(taskTurns));
const agent = await writeIsolatedAgentDir({ dir: join(work, ".agent"), baseUrl: server.baseUrl });
prepareFusionDemo(agent.dir, work);
say(`pi-background-tasks demo — offline scripted model at ${server.baseUrl}, working dir ${work}\n`);
const pi = startPiRpc({
  args: ["--no-session", "--no-extensions", "--offline", "-e", PACKAGE_ROOT],
  env: agent.env,
  cwd: work,
});
let shown = 0;
const flush = () => {
  while (shown < pi.events.length) show(pi.events[shown++] as PiRecord);
};
const pump = setInterval(flush, 50);
try {
  say(`user: ${BUILD_PROMPT}`);
  await pi.promptAndWait(BUILD_PROMPT, 30_000);
  const done = (e: PiRecord) => e.type === "message_end" && JSON.stringify(e.message).includes("Done.");
  await pi.waitFor(done, 30_000);
  await pi.waitFor((e) => e.type === "agent_end", 30_000, pi.events.findIndex(done));
  flush();
  say(
    `\nThe model was called ${server.requests.length} times; the third call was the wake-up by the completion notice.`,
  );
  await runFusionDemo({ pi, workDir: work, say, flush });
} finally {
  clearInterval(pump);
  flush();
  await pi.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
}

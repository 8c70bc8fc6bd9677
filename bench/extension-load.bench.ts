// Extension load cost: `pi -p` start-to-exit with and without this package loaded (issue #2).
// Run: node --import tsx bench/extension-load.bench.ts
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeIsolatedAgentDir } from "../adapters/fake/isolated-agent-dir.ts";
import { startScriptedModelServer } from "../adapters/fake/scripted-model-server.ts";
import { locatePiCli } from "../adapters/pi/e2e/pi-cli.ts";
import { median, report } from "./bench-util.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const root = new URL("..", import.meta.url).pathname;
const server = await startScriptedModelServer();
const work = mkdtempSync(join(tmpdir(), "bench-load-"));
const agent = await writeIsolatedAgentDir({ dir: join(work, ".agent"), baseUrl: server.baseUrl });
const cli = locatePiCli().cliPath;
const lean = ["--mode", "text", "--no-session", "--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files", "--offline", "-p", "hi"];

// Async on purpose: the scripted model server answers from this same process.
async function run(extra: string[]): Promise<number> {
  const start = performance.now();
  // stdin closed: a piped, open stdin would be read by pi as part of the prompt.
  const child = spawn(process.execPath, [cli, ...lean, ...extra], { cwd: work, env: { ...process.env, ...agent.env }, stdio: "ignore" });
  const code = await new Promise((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`pi exited ${String(code)}`);
  return performance.now() - start;
}

const without: number[] = [];
const withPackage: number[] = [];
await run([]);
await run(["-e", root]);
for (let i = 0; i < ROUNDS; i++) {
  without.push(await run([]));
  withPackage.push(await run(["-e", root]));
}
await server.close();
report(`pi -p start to exit, median of ${ROUNDS} interleaved runs`, {
  "without the package ms": median(without),
  "with the package ms": median(withPackage),
  "added ms (goal ≤ 50)": median(withPackage) - median(without),
});

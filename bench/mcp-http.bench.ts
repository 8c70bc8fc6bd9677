/**
 * MCP over Streamable HTTP, measured against the real bin (`mcp --http`) with the SDK's own client:
 * connect + tools/list, a bg_run round trip, and N concurrent clients each running and waiting on a task
 * (all answered, none lost, the server's open descriptors back to where they were). Baseline in the same run:
 * the bg_run round trip over stdio.
 *   node --import tsx bench/mcp-http.bench.ts [clients=100] [rounds=30]
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { connect } from "../adapters/mcp/e2e/mcp-client.test-support.ts";
import { connectHttp, startHttpServer } from "../adapters/mcp/e2e/mcp-http-server.test-support.ts";
import type { TaskSnapshot } from "../domain/tasks/model/task-snapshot.ts";
import { median, percentile, report, timed } from "./bench-util.ts";

const clients = Number(process.argv[2] ?? 100);
const rounds = Number(process.argv[3] ?? 30);
const cwd = mkdtempSync(join(tmpdir(), "bench-mcp-http-"));
const server = await startHttpServer(cwd, ["--no-auth"]);
const pid = server.child.pid ?? 0;
const fds = () => readdirSync(`/proc/${pid}/fd`).length;
const taskOf = (r: CallToolResult) => (r.structuredContent as { task: TaskSnapshot }).task;

try {
  // Warm up: the first connection loads the tools' modules.
  await (await connectHttp(server.url)).client.close();
  const baselineFds = fds();

  const connectList: number[] = [];
  const roundTrip: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const { ms, value: c } = await timed(async () => {
      const c = await connectHttp(server.url);
      await c.client.listTools();
      return c;
    });
    connectList.push(ms);
    const run = await timed(() =>
      c.client.callTool({ name: "bg_run", arguments: { name: `r${i}`, command: "true", isAgent: false } }),
    );
    roundTrip.push(run.ms);
    await c.client.callTool({ name: "bg_wait", arguments: { taskId: taskOf(run.value as CallToolResult).id } });
    await c.client.close();
  }

  const stdio = await connect(cwd);
  const stdioTrip: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const run = await timed(() =>
      stdio.client.callTool({ name: "bg_run", arguments: { name: `s${i}`, command: "true", isAgent: false } }),
    );
    stdioTrip.push(run.ms);
    await stdio.client.callTool({ name: "bg_wait", arguments: { taskId: taskOf(run.value as CallToolResult).id } });
  }
  await stdio.client.close();

  const many = await timed(() =>
    Promise.all(
      Array.from({ length: clients }, async (_, i) => {
        const c = await connectHttp(server.url);
        const started = (await c.client.callTool({
          name: "bg_run",
          arguments: { name: `c${i}`, command: `sleep 0.5; echo client-${i}`, isAgent: false },
        })) as CallToolResult;
        const waited = (await c.client.callTool({
          name: "bg_wait",
          arguments: { taskId: taskOf(started).id, timeoutSeconds: 120 },
        })) as CallToolResult;
        await c.client.close();
        return taskOf(waited).status;
      }),
    ),
  );
  const completed = many.value.filter((s) => s === "completed").length;
  // Closed connections and finished tasks release their descriptors shortly after.
  let after = fds();
  for (let i = 0; i < 50 && after > baselineFds; i++) {
    await new Promise((r) => setTimeout(r, 100));
    after = fds();
  }
  report(`MCP over Streamable HTTP (${rounds} rounds, ${clients} concurrent clients)`, {
    "connect + initialize + tools/list, median ms": median(connectList),
    "connect + initialize + tools/list, p95 ms": percentile(connectList, 95),
    "bg_run round trip, median ms": median(roundTrip),
    "bg_run round trip, p95 ms": percentile(roundTrip, 95),
    "bg_run round trip over stdio (baseline), median ms": median(stdioTrip),
    "HTTP / stdio round trip": median(roundTrip) / median(stdioTrip),
    [`${clients} clients each bg_run + bg_wait, wall ms`]: many.ms,
    "tasks completed / clients": `${completed} / ${clients}`,
    "server fds before / after": `${baselineFds} / ${after}`,
  });
} finally {
  server.child.kill("SIGTERM");
  await server.exited;
  rmSync(cwd, { recursive: true, force: true });
}

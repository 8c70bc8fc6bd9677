import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import { startPiRpc, type PiRpcClient } from "./rpc-client.ts";
import { PACKAGE_ROOT } from "./sdk-session.ts";
import { LEAN_PI_ARGS } from "./scripted-parent.test-support.ts";
import { TaskRpc } from "./task-rpc.test-support.ts";

/** A temp project with the scripted model and an isolated agent dir, where `pi --mode rpc` runs with this package. */
export interface RpcProject {
  readonly server: ScriptedModelServer;
  readonly cwd: string;
  readonly rpc: TaskRpc;
  startPi(): PiRpcClient;
  /** Closes every pi started and the model server. */
  close(): Promise<void>;
}

export async function openRpcProject(prefix: string): Promise<RpcProject> {
  const server = await startScriptedModelServer();
  const cwd = mkdtempSync(join(tmpdir(), prefix));
  const agent = await writeIsolatedAgentDir({ dir: join(cwd, ".agent"), baseUrl: server.baseUrl });
  const started: PiRpcClient[] = [];
  return {
    server,
    cwd,
    rpc: new TaskRpc(server, cwd),
    startPi() {
      const pi = startPiRpc({ args: [...LEAN_PI_ARGS, "-e", PACKAGE_ROOT], env: agent.env, cwd });
      started.push(pi);
      return pi;
    },
    async close() {
      for (const pi of started) await pi.close().catch(() => undefined);
      await server.close();
    },
  };
}

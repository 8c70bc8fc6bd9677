import { writeIsolatedAgentDir } from "../adapters/fake/isolated-agent-dir.ts";
import { startScriptedModelServer } from "../adapters/fake/scripted-model-server.ts";
import { runHookProbes, type ProbeModel } from "../adapters/node/hook-probe-runs.ts";
import { NodeProcessLauncher } from "../adapters/node/node-process-launcher.ts";
import { observeHookContract } from "../domain/delegate/model/hook-contract-observation.ts";
import type { DelegateHost } from "../domain/delegate/service/delegate-ports.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The host, able to prove the hook contract at launch against its own child Pi when no evidence is recorded. */
export function withHookContractProof(host: DelegateHost): DelegateHost {
  const { cliPath, piVersion } = host;
  if (cliPath === undefined || piVersion === undefined) return host;
  return { ...host, proveHookContract: () => proveHookContract(host.nodePath, cliPath, piVersion) };
}

/** One proof per Pi CLI and release in this process: a release is proved once, then its evidence is reused. */
const proofs = new Map<string, Promise<unknown>>();

/**
 * The hook contract proved by execution against the very Pi a delegate child would run, for a release with no
 * recorded evidence: the gate's three real agent loops (about a second, run at once) against the embedded
 * loopback scripted model, offline and with an isolated agent dir. Resolves with the observed evidence, which
 * the gate then checks like recorded evidence; rejects only when the probes could not run at all.
 */
export function proveHookContract(nodePath: string, cliPath: string, piVersion: string): Promise<unknown> {
  const key = `${nodePath}\0${cliPath}\0${piVersion}`;
  let proof = proofs.get(key);
  if (proof === undefined) {
    proof = runProof(nodePath, cliPath, piVersion);
    proofs.set(key, proof);
    proof.catch(() => proofs.delete(key));
  }
  return proof;
}

async function runProof(nodePath: string, cliPath: string, piVersion: string): Promise<unknown> {
  const root = mkdtempSync(join(tmpdir(), "pi-bg-hook-proof-"));
  let models = 0;
  const model = async (): Promise<ProbeModel> => {
    const server = await startScriptedModelServer();
    const agent = await writeIsolatedAgentDir({ dir: join(root, `agent-${models++}`), baseUrl: server.baseUrl });
    return { env: agent.env, requests: () => server.requests.map((r) => r.body), close: () => server.close() };
  };
  try {
    const runs = await runHookProbes({
      launcher: new NodeProcessLauncher(),
      nodePath,
      cliPath,
      baseEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root },
      model,
    });
    return observeHookContract(runs, piVersion);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

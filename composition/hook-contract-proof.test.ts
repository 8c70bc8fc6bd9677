import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { writeIsolatedAgentDir } from "../adapters/fake/isolated-agent-dir.ts";
import { startScriptedModelServer } from "../adapters/fake/scripted-model-server.ts";
import { nodeDelegateHost } from "../adapters/node/delegate-node-host.ts";
import { CryptoRandomSource } from "../adapters/node/crypto-random-source.ts";
import { NodeFileCommitter } from "../adapters/node/node-file-committer.ts";
import { NodeProcessLauncher } from "../adapters/node/node-process-launcher.ts";
import { confinedChildEnv } from "../adapters/node/confined-child-env.ts";
import { nodeReadScope } from "../adapters/node/node-read-scope.ts";
import { SystemClock } from "../adapters/node/system-clock.ts";
import { launchDelegate } from "../domain/delegate/service/launch-delegate.ts";
import { ok } from "../domain/shared/model/result.ts";
import { locatePiCli, piVersion } from "../adapters/pi/e2e/pi-cli.ts";
import { checkHookContract, evidenceFileName } from "../domain/delegate/model/hook-contract.ts";
import { canonicalJsonOf } from "../domain/shared/model/canonical-json.ts";
import { proveHookContract, withHookContractProof } from "./hook-contract-proof.ts";

/**
 * The hook-contract gate: three real `pi --mode json` agent loops against the scripted model, with two probe
 * extensions loaded in order, observing what Pi's `context` and `tool_result` hooks actually do
 * (domain/delegate/model/hook-contract-observation.ts). It runs through the very proof `bg_delegate` runs at
 * launch for a release with no recorded evidence (composition/hook-contract-proof.ts), so the recorded
 * evidence and the proof at launch are one observer. The evidence is recorded per release: if this lane's
 * file is missing it is written once, to be inspected by eye and committed; if it exists, the observations
 * must equal it byte for byte, so a Pi change to hook behaviour fails here instead of silently weakening the
 * guard. It is never rewritten by this test.
 */
const EVIDENCE_DIR = fileURLToPath(new URL("../domain/delegate/model/hook-contract-evidence/", import.meta.url));
const EVIDENCE_PATH = join(EVIDENCE_DIR, evidenceFileName(piVersion()) ?? "unknown-version.json");

describe("Pi hook contract (context and tool_result) on the installed Pi", () => {
  it("matches the committed evidence exactly (written once when absent)", async () => {
    const observed = canonicalJsonOf(await proveHookContract(process.execPath, locatePiCli().cliPath, piVersion()));
    if (!existsSync(EVIDENCE_PATH)) {
      writeFileSync(EVIDENCE_PATH, observed, { flag: "wx" });
      console.warn(`hook-contract: wrote ${EVIDENCE_PATH}; inspect it by eye and commit it`);
    }
    expect(observed).toBe(readFileSync(EVIDENCE_PATH, "utf8"));
  });

  it("the shipped evidence proves every guarantee the delegate guard relies on, for this Pi", () => {
    const shipped: unknown = JSON.parse(readFileSync(EVIDENCE_PATH, "utf8"));
    const checked = checkHookContract(shipped, piVersion());
    expect(checked.ok ? "supported" : checked.error.message).toBe("supported");
  });

  it("bg_delegate on a release with no recorded evidence proves the contract on its child Pi first, then runs the child", async () => {
    const work = mkdtempSync(join(tmpdir(), "hook-proof-delegate-"));
    const server = await startScriptedModelServer();
    try {
      const agent = await writeIsolatedAgentDir({
        dir: join(work, "agent"),
        baseUrl: server.baseUrl,
        models: [{ id: "roomy", contextWindow: 200_000, maxTokens: 4096 }],
      });
      server.enqueue({ text: "ANSWER: proved first." });
      const ports = {
        files: new NodeFileCommitter(),
        launcher: new NodeProcessLauncher(),
        clock: new SystemClock(),
        random: new CryptoRandomSource(),
        conversation: {
          capture: () =>
            ok({ cwd: work, systemPrompt: "sys", messages: [{ role: "user" as const, content: "hello" }] }),
        },
        childEnv: (extra: Readonly<Record<string, string>>, provider: string) =>
          confinedChildEnv({ ...process.env, ...agent.env }, provider, extra),
        readScope: (cwd: string) => nodeReadScope(cwd, process.env),
      };
      // As on a Pi release the package has no evidence for: an empty evidence directory.
      const proving = withHookContractProof({
        ...nodeDelegateHost(process.env),
        hookEvidenceDir: join(work, "no-evidence"),
      });
      let consulted = 0;
      const host = {
        ...proving,
        proveHookContract: () => {
          consulted += 1;
          return proving.proveHookContract?.() ?? Promise.reject(new Error("no prover"));
        },
      };
      const launched = await launchDelegate(ports, {
        rawArguments: { name: "proof", prompt: "Answer." },
        toolCallId: "call_1",
        location: { baseDir: work, sessionId: "parent", pid: process.pid },
        currentRoute: { provider: "scripted", model: "roomy" },
        availableModels: [{ provider: "scripted", model: "roomy", contextWindow: 200_000 }],
        host,
      });
      expect(launched.ok ? "launched" : launched.error.message).toBe("launched");
      if (!launched.ok) return;
      const outcome = await launched.value.handle.whenDone();
      expect(outcome).toMatchObject({ state: "completed" });
      // The proof is run once per release in a process (the first test here may have run it already).
      expect(consulted).toBe(1);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeFusionModelSourceContract } from "../../contract-tests/fusion-model-source.contract.ts";
import type { HostModel } from "../../ports/host-session.ts";
import {
  ABSENT_REVISION,
  DEFAULT_FUSION_MODELS_CONFIG,
  type FusionModelsConfig,
} from "../../domain/fusion/model/fusion-models-config.ts";
import { ok } from "../../domain/shared/model/result.ts";
import { FakeHostSession } from "../fake/fake-host-session.ts";
import { DEFAULT_SCRIPTED_MODELS, SCRIPTED_PROVIDER, writeIsolatedAgentDir } from "../fake/isolated-agent-dir.ts";
import { PiFusionModels } from "./pi-fusion-models.ts";

let root: string | undefined;
const close = async () => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
};

async function agentDirWith(saved: FusionModelsConfig | undefined, thinking: string) {
  root = mkdtempSync(join(tmpdir(), "pi-fusion-models-"));
  const agent = await writeIsolatedAgentDir({
    dir: join(root, "agent"),
    baseUrl: "http://127.0.0.1:9/v1",
    extraSettings: { defaultThinkingLevel: thinking },
  });
  // The saved file's store is the node adapter's concern (its own tests); here it is the configuration as loaded.
  const path = join(agent.dir, "fusion-models.json");
  const loaded = {
    config: saved ?? DEFAULT_FUSION_MODELS_CONFIG,
    revision: ABSENT_REVISION,
    exists: saved !== undefined,
  };
  return { saved: { path, load: async () => ok(loaded) }, agentDir: agent.dir, cwd: root };
}

/** The scripted models whose windows are large enough for a Fusion stage (scripted-a's 32k is not). */
const scripted: HostModel[] = DEFAULT_SCRIPTED_MODELS.map((m) => ({
  provider: SCRIPTED_PROVIDER,
  id: m.id,
  contextWindow: m.contextWindow ?? 0,
  maxTokens: m.maxTokens ?? 0,
})).filter((m) => m.contextWindow >= 64_000);

describeFusionModelSourceContract("PiFusionModels in a Pi session", {
  async open(saved) {
    const where = await agentDirWith(saved, "off");
    const current = scripted[0];
    if (current === undefined) throw new Error("two scripted models");
    const session = new FakeHostSession({
      cwd: where.cwd,
      sessionId: "s1",
      models: scripted,
      current: { provider: current.provider, id: current.id },
      thinking: "medium",
    });
    return { source: new PiFusionModels(where), session, served: scripted, thinking: "medium", current };
  },
  close,
});

describeFusionModelSourceContract("PiFusionModels without a session (Pi's registry, Pi's settings)", {
  async open(saved) {
    const where = await agentDirWith(saved, "high");
    return { source: new PiFusionModels(where), session: undefined, served: scripted, thinking: "high" };
  },
  close,
});

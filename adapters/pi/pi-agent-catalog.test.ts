import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir } from "../fake/isolated-agent-dir.ts";
import { availablePiModels, configuredThinkingLevel } from "./pi-agent-catalog.ts";
import { piAgentDir } from "./pi-agent-dir.ts";

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "pi-agent-catalog-"));
  roots.push(root);
  return root;
}

describe("piAgentDir", () => {
  it("follows PI_CODING_AGENT_DIR (with ~ expanded as Pi does) and falls back to ~/.pi/agent", () => {
    expect(piAgentDir({ PI_CODING_AGENT_DIR: "/srv/agent" }, "/home/u")).toBe("/srv/agent");
    expect(piAgentDir({ PI_CODING_AGENT_DIR: "~/agents/pi" }, "/home/u")).toBe("/home/u/agents/pi");
    expect(piAgentDir({ PI_CODING_AGENT_DIR: "" }, "/home/u")).toBe("/home/u/.pi/agent");
    expect(piAgentDir({}, "/home/u")).toBe("/home/u/.pi/agent");
  });
});

describe("Pi's model registry without a Pi session", () => {
  it("lists the models.json provider's models with their context windows and output limits", async () => {
    const agent = await writeIsolatedAgentDir({ dir: join(tempRoot(), "agent"), baseUrl: "http://127.0.0.1:9/v1" });
    const models = await availablePiModels(agent.dir);
    if (!models.ok) throw new Error(models.error.message);
    const scripted = models.value.filter((m) => m.provider === "scripted");
    expect(scripted).toEqual([
      { provider: "scripted", id: "scripted-a", contextWindow: 32000, maxTokens: 4096 },
      { provider: "scripted", id: "scripted-b", contextWindow: 64000, maxTokens: 4096 },
      { provider: "scripted", id: "scripted-c", contextWindow: 200000, maxTokens: 8192 },
    ]);
  });

  it("reports a broken models.json as a typed error instead of a shorter list", async () => {
    const agent = await writeIsolatedAgentDir({ dir: join(tempRoot(), "agent"), baseUrl: "http://127.0.0.1:9/v1" });
    writeFileSync(join(agent.dir, "models.json"), "{ not json");
    const models = await availablePiModels(agent.dir);
    expect(models.ok ? "" : models.error.code).toBe("model_catalog_invalid");
    expect(models.ok ? "" : models.error.message).toContain(join(agent.dir, "models.json"));
  });

  it("thinks 'off' unless Pi's settings configure a default thinking level", async () => {
    const root = tempRoot();
    const plain = await writeIsolatedAgentDir({ dir: join(root, "plain"), baseUrl: "http://127.0.0.1:9/v1" });
    expect(configuredThinkingLevel(root, plain.dir)).toBe("off");
    const configured = await writeIsolatedAgentDir({
      dir: join(root, "configured"),
      baseUrl: "http://127.0.0.1:9/v1",
      extraSettings: { defaultThinkingLevel: "high" },
    });
    expect(configuredThinkingLevel(root, configured.dir)).toBe("high");
  });
});

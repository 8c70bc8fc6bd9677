import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeIsolatedAgentDir } from "./isolated-agent-dir.ts";

const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

describe("writeIsolatedAgentDir", () => {
  it("writes the scripted provider and the settings Pi reads from PI_CODING_AGENT_DIR", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "agent-dir-")), "agent");
    const agent = await writeIsolatedAgentDir({ dir, baseUrl: "http://127.0.0.1:4242/v1" });
    expect(agent).toEqual({ dir, env: { PI_CODING_AGENT_DIR: dir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" } });
    const models = readJson(join(dir, "models.json")) as { providers: { scripted: Record<string, unknown> } };
    const provider = models.providers.scripted;
    expect(provider).toMatchObject({
      baseUrl: "http://127.0.0.1:4242/v1",
      api: "openai-completions",
      apiKey: "scripted-local-key",
      compat: {
        supportsDeveloperRole: false,
        supportsReasoningEffort: false,
        supportsStore: false,
        maxTokensField: "max_tokens",
      },
    });
    const list = provider.models as { id: string; contextWindow: number; reasoning?: boolean; cost?: unknown }[];
    expect(list.map((m) => [m.id, m.contextWindow, m.reasoning === true])).toEqual([
      ["scripted-a", 32000, false],
      ["scripted-b", 64000, false],
      ["scripted-c", 200000, true],
    ]);
    expect(list[0]?.cost).toEqual({ input: 1, output: 2, cacheRead: 0, cacheWrite: 0 });
    expect(readJson(join(dir, "settings.json"))).toEqual({
      defaultProvider: "scripted",
      defaultModel: "scripted-a",
      quietStartup: true,
      packages: [],
      lastChangelogVersion: "0.73.1",
      compaction: { enabled: false },
    });
  });

  it("takes custom models, a default model and extra settings, and refuses an unknown default", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-dir-"));
    await writeIsolatedAgentDir({
      dir,
      baseUrl: "http://127.0.0.1:1/v1",
      models: [{ id: "m1" }, { id: "m2", contextWindow: 1000 }],
      defaultModel: "m2",
      extraSettings: { retry: { enabled: false }, quietStartup: false },
    });
    expect(readJson(join(dir, "settings.json"))).toMatchObject({
      defaultModel: "m2",
      retry: { enabled: false },
      quietStartup: false,
    });
    await expect(
      writeIsolatedAgentDir({ dir, baseUrl: "http://127.0.0.1:1/v1", defaultModel: "nope" }),
    ).rejects.toThrow("'nope' is not one of");
  });
});

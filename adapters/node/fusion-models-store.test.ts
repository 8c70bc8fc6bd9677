import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync, existsSync, mkdirSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  ABSENT_REVISION,
  DEFAULT_FUSION_MODELS_CONFIG,
  revisionOf,
  withSelection,
} from "../../domain/fusion/model/fusion-models-config.ts";
import { FusionModelsStore } from "./fusion-models-store.ts";

const here = dirname(fileURLToPath(import.meta.url));
const WORKER = join(here, "fixtures", "fusion-models-save-worker.ts");
const fresh = (): string => join(mkdtempSync(join(tmpdir(), "fusion-models-")), "agent");

describe("FusionModelsStore", () => {
  it("a missing file loads as all $current with revision 'absent'", async () => {
    const store = new FusionModelsStore({ agentDir: fresh() });
    expect(await store.load()).toEqual({
      ok: true,
      value: { config: DEFAULT_FUSION_MODELS_CONFIG, revision: ABSENT_REVISION, exists: false },
    });
  });

  it("saves pretty JSON atomically, makes the directory 0700, and the next load sees the new revision", async () => {
    const agentDir = fresh();
    mkdirSync(agentDir, { recursive: true });
    chmodSync(agentDir, 0o755);
    const store = new FusionModelsStore({ agentDir });
    const config = withSelection(DEFAULT_FUSION_MODELS_CONFIG, "evaluator", "openrouter/vendor/model");
    const saved = await store.save(config, ABSENT_REVISION);
    expect(saved.ok).toBe(true);
    const bytes = readFileSync(store.path);
    expect(bytes.toString("utf8")).toBe(`${JSON.stringify(config, null, 2)}\n`);
    expect(statSync(agentDir).mode & 0o777).toBe(0o700);
    expect(existsSync(store.lockPath)).toBe(false);
    const loaded = await store.load();
    expect(loaded).toEqual({ ok: true, value: { config, revision: revisionOf(bytes), exists: true } });
    expect(saved.ok && saved.value.revision).toBe(revisionOf(bytes));
  });

  it("refuses a save against a stale revision and keeps the file as it was", async () => {
    const store = new FusionModelsStore({ agentDir: fresh() });
    const first = await store.save(withSelection(DEFAULT_FUSION_MODELS_CONFIG, "merger", "a/one"), ABSENT_REVISION);
    expect(first.ok).toBe(true);
    const before = readFileSync(store.path, "utf8");
    const stale = await store.save(withSelection(DEFAULT_FUSION_MODELS_CONFIG, "merger", "a/two"), ABSENT_REVISION);
    expect(stale.ok ? undefined : stale.error.code).toBe("config_conflict");
    expect(readFileSync(store.path, "utf8")).toBe(before);
  });

  it("a malformed file is config_invalid naming the path", async () => {
    const agentDir = fresh();
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(
      join(agentDir, "fusion-models.json"),
      '{"schema_version":"pi-background-tasks.fusion-models.v1","candidates":[],"evaluator":"x","merger":"$current"}',
    );
    const loaded = await new FusionModelsStore({ agentDir }).load();
    expect(loaded.ok ? undefined : loaded.error.code).toBe("config_invalid");
    expect(loaded.ok ? "" : loaded.error.message).toContain(join(agentDir, "fusion-models.json"));
  });

  it("waits for a lock held by a live process and times out with config_conflict naming it", async () => {
    const agentDir = fresh();
    mkdirSync(agentDir, { recursive: true });
    const store = new FusionModelsStore({ agentDir, lock: { timeoutMs: 120, pollMs: 25 } });
    writeFileSync(store.lockPath, `${process.pid}\n`);
    const saved = await store.save(DEFAULT_FUSION_MODELS_CONFIG, ABSENT_REVISION);
    expect(saved.ok ? undefined : saved.error.code).toBe("config_conflict");
    expect(saved.ok ? "" : saved.error.message).toContain(`held by pid ${process.pid}, which is still running`);
    expect(existsSync(store.path)).toBe(false);
    expect(readFileSync(store.lockPath, "utf8")).toBe(`${process.pid}\n`);
  });

  it("a lock left by a dead pid is not stolen: the save fails naming the pid and the file to delete", async () => {
    const agentDir = fresh();
    mkdirSync(agentDir, { recursive: true });
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const deadPid = Number(dead.stdout);
    const store = new FusionModelsStore({ agentDir, lock: { timeoutMs: 80, pollMs: 25 } });
    writeFileSync(store.lockPath, `${deadPid}\n`);
    const saved = await store.save(DEFAULT_FUSION_MODELS_CONFIG, ABSENT_REVISION);
    expect(saved.ok ? undefined : saved.error.code).toBe("config_conflict");
    expect(saved.ok ? "" : saved.error.message).toContain(`left by pid ${deadPid}, which is no longer running`);
    expect(saved.ok ? "" : saved.error.message).toContain(`delete ${store.lockPath}`);
    expect(existsSync(store.lockPath)).toBe(true);
  });

  it("two processes saving from the same load: exactly one wins, the other gets config_conflict", async () => {
    const agentDir = fresh();
    const workers = ["a/first", "a/second"].map((merger) => startWorker(agentDir, merger));
    const loaded = await Promise.all(workers.map((w) => w.next()));
    expect(loaded).toEqual([{ loaded: ABSENT_REVISION }, { loaded: ABSENT_REVISION }]);
    for (const w of workers) w.go();
    const outcomes = (await Promise.all(workers.map((w) => w.next()))) as Array<{
      saved?: string;
      error?: { code: string };
    }>;
    const winners = outcomes.flatMap((o, i) => (o.saved !== undefined ? [i] : []));
    const losers = outcomes.filter((o) => o.error !== undefined);
    expect(winners).toHaveLength(1);
    expect(losers.map((o) => o.error?.code)).toEqual(["config_conflict"]);
    const onDisk = JSON.parse(readFileSync(join(agentDir, "fusion-models.json"), "utf8")) as { merger: string };
    expect(onDisk.merger).toBe(winners[0] === 0 ? "a/first" : "a/second");
    expect(existsSync(join(agentDir, ".fusion-models.json.lock"))).toBe(false);
  });
});

function startWorker(agentDir: string, merger: string): { next(): Promise<unknown>; go(): void } {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, agentDir, merger], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    next: async () => {
      const line = await lines.next();
      if (line.done === true) throw new Error("worker ended early");
      return JSON.parse(line.value) as unknown;
    },
    go: () => child.stdin.end("go\n"),
  };
}

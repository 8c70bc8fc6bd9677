import { expect } from "vitest";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeFusionChildRunner, type FakeStageScript } from "../../../adapters/fake/fake-fusion-child-runner.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { checkStateHistory } from "../model/fusion-manifest.ts";
import type { FusionError } from "../model/fusion-error.ts";
import {
  fusionHarness,
  happyScripts,
  recordingBudgetGate,
  type FusionHarness,
  type RecordingBudgetGate,
} from "./fusion-fixtures.test-support.ts";

// Shared by the runFusion failure tests: a harness over the fake child runner whose happy scripts a test
// changes stage by stage, the failed run's error, and the checks every terminal run must pass.

export interface Harness extends FusionHarness {
  readonly runner: FakeFusionChildRunner;
  readonly files: InMemoryFileCommitter;
  readonly budget: RecordingBudgetGate;
}

export function harness(changes: Record<string, FakeStageScript> = {}, budget = recordingBudgetGate()): Harness {
  const files = new InMemoryFileCommitter();
  const runner = new FakeFusionChildRunner({ ...happyScripts(), ...changes }, { files });
  return {
    runner,
    files,
    budget,
    ...fusionHarness({ runner, files, clock: new FakeClock(), random: new SeededRandomSource(11), budget }),
  };
}

export async function failure(h: Harness, overrides: Parameters<Harness["run"]>[0] = {}): Promise<FusionError> {
  const result = await h.run(overrides);
  if (result.ok) throw new Error("the run was expected to fail");
  return result.error;
}

export function expectTerminal(h: Harness, error: FusionError, state: "failed" | "cancelled"): Record<string, unknown> {
  const dir = error.artifactDir ?? "";
  const manifest = h.manifest(dir);
  expect(manifest.state).toBe(state);
  expect(checkStateHistory(manifest).ok).toBe(true);
  expect(manifest.error?.code).toBe(error.code);
  const record = h.errorRecord(dir);
  expect(record?.status).toBe(state);
  expect(record?.code).toBe(error.code);
  expect(h.runner.liveChildren()).toEqual([]);
  expect(h.read(dir, "merged.md")).toBeUndefined();
  return record ?? {};
}

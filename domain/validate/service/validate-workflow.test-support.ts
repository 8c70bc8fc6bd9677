/** The fake-runner harness of the fusion_validate workflow tests, and the reviews they share. */
import type { Result } from "../../shared/model/result.ts";
import { FakeClock } from "../../../adapters/fake/fake-clock.ts";
import { FakeFusionChildRunner, type FakeStageScript } from "../../../adapters/fake/fake-fusion-child-runner.ts";
import { InMemoryFileCommitter } from "../../../adapters/fake/in-memory-file-committer.ts";
import { SeededRandomSource } from "../../../adapters/fake/seeded-random-source.ts";
import { finding, review } from "../model/validate-fixtures.test-support.ts";
import { validateHarness as harnessWith, type ValidateHarness as Harness } from "./validate-fixtures.test-support.ts";
import type { ValidateCompleted, ValidateRunError } from "./validate-run.ts";

export type ValidateHarness = Harness<FakeFusionChildRunner, InMemoryFileCommitter>;

export function validateHarness(stageScripts: Record<string, FakeStageScript>, seed = 11): ValidateHarness {
  const files = new InMemoryFileCommitter();
  return harnessWith({
    runner: new FakeFusionChildRunner(stageScripts, { files }),
    files,
    clock: new FakeClock(),
    random: new SeededRandomSource(seed),
  });
}

export const CLEAN = review([], ["Checked that persist() is awaited before the notice."]);
export const CRITICAL = finding({
  severity: "critical",
  summary: "Terminal state is published before metadata is durable.",
  location: "domain/tasks/service/task-runtime.ts:88 finish()",
});

export async function completed(h: ValidateHarness, args?: unknown): Promise<ValidateCompleted> {
  const outcome = await settle(h, args);
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

export async function settle(h: ValidateHarness, args?: unknown): Promise<Result<ValidateCompleted, ValidateRunError>> {
  const launch = await h.start(args);
  if (!launch.ok) throw new Error(`launch refused: ${launch.error.message}`);
  return launch.value.execute();
}

export async function failure(h: ValidateHarness): Promise<ValidateRunError> {
  const outcome = await settle(h);
  if (outcome.ok) throw new Error("the run was expected to fail");
  return outcome.error;
}

/** The run directory of the first child the harness prepared. */
export function dirOf(h: ValidateHarness): string {
  const spec = h.runner.specs.values().next().value;
  if (spec === undefined) throw new Error("no child was prepared");
  return spec.runDir;
}

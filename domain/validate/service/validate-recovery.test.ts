import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { usageOf } from "../../fusion/service/fusion-fixtures.test-support.ts";
import { review } from "../model/validate-fixtures.test-support.ts";
import { evaluator, merger, scripts } from "./validate-fixtures.test-support.ts";
import { CLEAN, completed, CRITICAL, dirOf, failure, validateHarness } from "./validate-workflow.test-support.ts";
import { includeAll } from "../model/validate-fixtures.test-support.ts";

// Reviewers and mergers that answer the way real models often do (issue 18): what can be recovered is,
// deterministically or by one bounded repair, and every finding reaches the report.

const sends = (h: ReturnType<typeof validateHarness>) => h.runner.events.filter((e) => e.kind === "send").length;
const attempt = (h: ReturnType<typeof validateHarness>, prefix: string) =>
  (
    JSON.parse(h.text(`${dirOf(h)}/manifest.json`) ?? "{}") as { attempts: { prefix: string; status: string }[] }
  ).attempts.find((a) => a.prefix === prefix);

describe("fusion_validate with reviewers that wrap, preface or drop their JSON", () => {
  it("judges a fenced review without its fence, with no extra call, keeping both byte strings", async () => {
    const bare = review([CRITICAL]);
    const fenced = "```json\n" + bare + "\n```";
    const h = validateHarness(scripts([CLEAN, fenced, CLEAN]));
    const done = await completed(h);
    expect(sends(h)).toBe(5);
    expect(done.report).toContain(`Critical: ${CRITICAL.summary}`);
    expect(h.text(`${done.artifactDir}/candidate-2.attempt-1.response.md`)).toBe(fenced);
    expect(h.text(`${done.artifactDir}/candidate-2.attempt-1.response.unwrapped.json`)).toBe(bare);
    expect(attempt(h, "candidate-2.attempt-1")).toMatchObject({
      status: "completed",
      normalised: { kind: "fence", raw_sha256: sha256Hex(fenced), unwrapped_sha256: sha256Hex(bare) },
    });
  });

  it("gives a prefaced review one repair with no tools, fed its own answer and the exact errors", async () => {
    const prefaced = `Here is my review:\n${review([CRITICAL])}`;
    const h = validateHarness({
      ...scripts([CLEAN, prefaced, CLEAN]),
      "candidate-2.attempt-2": { answer: review([CRITICAL]), usage: usageOf(7) },
    });
    const done = await completed(h);
    expect(sends(h)).toBe(6);
    expect(done.report).toContain(`Critical: ${CRITICAL.summary}`);
    expect(h.runner.specs.get("candidate-2.attempt-2")?.tools).toEqual([]);
    const repairPrompt = h.runner.sentPrompt("candidate-2.attempt-2") ?? "";
    expect(repairPrompt).toContain(JSON.stringify(prefaced));
    expect(repairPrompt).toContain("does not start with '{'");
    expect(repairPrompt).not.toContain("CANONICAL INPUT");
    expect(attempt(h, "candidate-2.attempt-1")?.status).toBe("rejected");
    expect(h.progress.some((p) => p.event.type === "candidate_retry" && p.event.repair)).toBe(true);
  });

  it("asks a reviewer that answered nothing once more with its tools, then fails a slot refused twice", async () => {
    const h = validateHarness({
      ...scripts([CLEAN, "", CLEAN]),
      "candidate-2.attempt-2": { answer: review([CRITICAL]), usage: usageOf(7) },
    });
    expect((await completed(h)).report).toContain(`Critical: ${CRITICAL.summary}`);
    expect(h.runner.specs.get("candidate-2.attempt-2")?.tools).toEqual(
      h.runner.specs.get("candidate-2.attempt-1")?.tools,
    );
    expect(h.runner.sentPrompt("candidate-2.attempt-2")).toBe(h.runner.sentPrompt("candidate-2.attempt-1"));

    const twice = validateHarness({
      ...scripts([CLEAN, "Sure! Let me look.", CLEAN]),
      "candidate-2.attempt-2": { answer: "Still not JSON.", usage: usageOf(7) },
    });
    const error = await failure(twice);
    expect(error).toMatchObject({ code: "output_contract_violated", stage: "candidate", slot: 2, attempt: 2 });
    expect(error.message).toContain("still refused after 2 attempts");
    expect(error.message).toContain(
      "Stopped at stage candidate, candidate slot 2, attempt 2 (output_contract_violated).",
    );
    expect(error.message).toContain(`Preserved in ${dirOf(twice)}: the manifest, error.json`);
    expect(twice.files.listDir(dirOf(twice))).not.toContain("result.json");
  });
});

/** Every included id the (repair) prompt's decisions name, cited once each. */
const citedIn = (prompt: string) =>
  [...new Set([...prompt.matchAll(/"source_id":"([A-C]-F\d{3})"/g)].map((m) => `[${m[1]}]`))].join(" ");

describe("fusion_validate with a merger that drops, revives or invents a citation", () => {
  it("repairs the merger once; a repaired narrative completes the run as usual", async () => {
    const h = validateHarness({
      ...scripts(
        [CLEAN, review([CRITICAL]), CLEAN],
        evaluator(includeAll()),
        merger((included) => included.slice(1)),
      ),
      "merge.attempt-2": { answer: (prompt) => `Consolidated: ${citedIn(prompt)} stands.`, usage: usageOf(8) },
    });
    const done = await completed(h);
    const repairPrompt = h.runner.sentPrompt("merge.attempt-2") ?? "";
    expect(repairPrompt).toContain("the merger dropped included finding");
    expect(done.details.narrative_incomplete).toBe(false);
    expect(done.result.record.narrative_incomplete).toBeUndefined();
  });

  it("completes without the narrative when the repair is refused too, with every finding and the mark", async () => {
    const inventing = merger((included) => [...included, "C-F999"]);
    const h = validateHarness({
      ...scripts([CLEAN, review([CRITICAL]), CLEAN], evaluator(includeAll()), inventing),
      "merge.attempt-2": { answer: "Everything is fine.", usage: usageOf(8) },
    });
    const done = await completed(h);
    expect(done.details.narrative_incomplete).toBe(true);
    expect(done.result.record.narrative_incomplete).toBe(true);
    expect(done.report).toContain("**Narrative incomplete:**");
    expect(done.report).toContain(`Critical: ${CRITICAL.summary}`);
    expect(h.text(`${done.artifactDir}/merged.md`)).toBe(done.report);
    expect(attempt(h, "merge.attempt-2")?.status).toBe("rejected");
    expect(h.progress.some((p) => p.event.type === "narrative_incomplete")).toBe(true);
  });
});

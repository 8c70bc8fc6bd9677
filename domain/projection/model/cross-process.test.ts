import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../shared/model/canonical-json.ts";
import { assistant, call, image, result, text, think, user } from "../fixtures/message-builders.ts";
import { renderGoldenCorpus } from "../fixtures/golden-render.ts";
import { buildFusionInput } from "./fusion-input.ts";
import { FUSION_TOOL_POLICY } from "./projection-policy.ts";
import type { SourceMessage } from "./source-message.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

// Runs in a fresh Node process: same modules, new heap, new module instances.
const CHILD = `
import { readFileSync } from "node:fs";
const root = process.argv[1];
const { buildFusionInput } = await import(root + "domain/projection/model/fusion-input.ts");
const { FUSION_TOOL_POLICY } = await import(root + "domain/projection/model/projection-policy.ts");
const { renderGoldenCorpus } = await import(root + "domain/projection/fixtures/golden-render.ts");
const { sha256Hex } = await import(root + "domain/shared/model/canonical-json.ts");
const messages = JSON.parse(readFileSync(0, "utf8"));
const built = buildFusionInput({ cwd: "/repo", systemPrompt: "sys", policy: FUSION_TOOL_POLICY, requestText: "go", activeToolCallId: "none", messages });
if (!built.ok) throw new Error(built.error.message);
console.log(JSON.stringify({ corpus: sha256Hex(renderGoldenCorpus()), input: built.value.inputSha256, ledger: built.value.ledgerSha256 }));
`;

function conversation(turns: number): SourceMessage[] {
  const out: SourceMessage[] = [];
  for (let i = 0; i < turns; i++) {
    out.push(user(text(`question ${i} \u00e9\u{1F600}`), image("image/png", `img${i}`)));
    out.push(
      assistant(
        think(`why ${i}`),
        text(`answer ${i}`),
        call(`c${i}`, i % 2 ? "read" : "bash", { i, s: "x".repeat(i) }),
      ),
    );
    out.push(result(`c${i}`, "read", text(`out ${i}`), image("image/jpeg", `shot${i}`)));
  }
  return out;
}

describe("byte identity across processes", () => {
  it("a separate node process builds the same bytes for the golden corpus and a generated session", () => {
    const messages = conversation(40);
    const here = buildFusionInput({
      cwd: "/repo",
      systemPrompt: "sys",
      policy: FUSION_TOOL_POLICY,
      requestText: "go",
      activeToolCallId: "none",
      messages,
    });
    if (!here.ok) throw new Error(here.error.message);
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD, repoRoot], {
      cwd: repoRoot,
      input: JSON.stringify(messages),
      encoding: "utf8",
    });
    expect(JSON.parse(out.trim())).toEqual({
      corpus: sha256Hex(renderGoldenCorpus()),
      input: here.value.inputSha256,
      ledger: here.value.ledgerSha256,
    });
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { supportedEvidence } from "./delegate-fixtures.test-support.ts";
import { checkHookContract } from "./hook-contract.ts";

describe("hook-contract admission gate", () => {
  it("accepts evidence proving every guarantee for the same Pi version", () => {
    expect(checkHookContract(supportedEvidence(), "0.73.1").ok).toBe(true);
  });

  it("the shipped evidence file is a valid document", () => {
    const shipped: unknown = JSON.parse(readFileSync(new URL("./hook-contract-evidence.json", import.meta.url), "utf8"));
    expect(checkHookContract(shipped, (shipped as { pi_version: string }).pi_version).ok).toBe(true);
  });

  it.each([
    ["missing evidence", undefined, "0.73.1"],
    ["a malformed document", { schema_version: "x" }, "0.73.1"],
    ["an unknown child Pi version", supportedEvidence(), undefined],
    ["another Pi version", supportedEvidence(), "0.83.0"],
  ])("refuses %s", (_what, evidence, version) => {
    const checked = checkHookContract(evidence, version);
    expect(checked.ok ? checked.value : checked.error).toMatchObject({ code: "delegate_hook_contract_unsupported", childCreated: false });
  });

  it("does not rely on a throw blocking the call or on abort skipping the request", () => {
    const e = supportedEvidence();
    expect(checkHookContract({ ...e, context: { ...e.context, throw_blocks_provider_call: false, abort_provider_request_sent: true } }, "0.73.1").ok).toBe(true);
    const noAbortStop = checkHookContract({ ...e, context: { ...e.context, abort_terminates_run: false } }, "0.73.1");
    expect(noAbortStop.ok ? [] : noAbortStop.error.problems).toEqual(["`ctx.abort()` from `context` terminates the run"]);
  });
});

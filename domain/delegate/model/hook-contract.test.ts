import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { supportedEvidence } from "./delegate-fixtures.test-support.ts";
import { checkHookContract, evidenceFileName } from "./hook-contract.ts";

describe("hook-contract admission gate", () => {
  it("accepts evidence proving every guarantee for the same Pi version", () => {
    expect(checkHookContract(supportedEvidence(), "0.73.1").ok).toBe(true);
  });

  it("every shipped evidence file is a valid document for the release its name says, and proves the contract", () => {
    const dir = new URL("./hook-contract-evidence/", import.meta.url);
    const files = readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(["pi-0.73.1.json", "pi-1.6.0.json"]));
    for (const file of files) {
      const shipped = JSON.parse(readFileSync(new URL(file, dir), "utf8")) as { pi_version: string };
      expect(evidenceFileName(shipped.pi_version)).toBe(file);
      expect(checkHookContract(shipped, shipped.pi_version).ok).toBe(true);
    }
  });

  it("names evidence files by the exact release, and never for a malformed version", () => {
    expect(evidenceFileName("1.6.0")).toBe("pi-1.6.0.json");
    expect([undefined, "1.6", "../1.6.0", "1.6.0/x"].map(evidenceFileName)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it.each([
    ["missing evidence", undefined, "0.73.1"],
    ["a malformed document", { schema_version: "x" }, "0.73.1"],
    ["an unknown child Pi version", supportedEvidence(), undefined],
    ["another Pi version", supportedEvidence(), "0.83.0"],
  ])("refuses %s", (_what, evidence, version) => {
    const checked = checkHookContract(evidence, version);
    expect(checked.ok ? checked.value : checked.error).toMatchObject({
      code: "delegate_hook_contract_unsupported",
      childCreated: false,
    });
  });

  it("does not rely on a throw blocking the call or on abort skipping the request", () => {
    const e = supportedEvidence();
    expect(
      checkHookContract(
        { ...e, context: { ...e.context, throw_blocks_provider_call: false, abort_provider_request_sent: true } },
        "0.73.1",
      ).ok,
    ).toBe(true);
    const noAbortStop = checkHookContract({ ...e, context: { ...e.context, abort_terminates_run: false } }, "0.73.1");
    expect(noAbortStop.ok ? [] : noAbortStop.error.problems).toEqual([
      "`ctx.abort()` from `context` terminates the run",
    ]);
  });
});

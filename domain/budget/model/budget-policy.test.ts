import { describe, expect, it } from "vitest";
import {
  exceedsOutputContract,
  jsonRenderedBytes,
  MIN_CONTEXT_WINDOW,
  OUTPUT_CONTRACT_BYTES,
  RESERVED_OUTPUT_TOKENS,
  SAFETY_TOKENS,
  utilisationBp,
} from "./budget-policy.ts";

describe("fusion-budget-policy-v3 numbers", () => {
  it("reserves ceil(64 KiB / 2.00) output tokens and needs a 45,056-token window", () => {
    expect(RESERVED_OUTPUT_TOKENS).toBe(32768);
    expect(SAFETY_TOKENS).toBe(4096);
    expect(MIN_CONTEXT_WINDOW).toBe(45056);
    expect(OUTPUT_CONTRACT_BYTES).toEqual({ candidate: 49152, evaluator: 65536, merger: 65536, diagnostics: 8192 });
  });
});

describe("JSON-rendered output contracts", () => {
  it("count quotes and escape expansion, in UTF-8", () => {
    expect(jsonRenderedBytes("ab")).toBe(4);
    expect(jsonRenderedBytes('a"\n')).toBe(7);
    expect(jsonRenderedBytes("\u0001")).toBe(8);
    expect(jsonRenderedBytes("é")).toBe(4);
  });

  it("accepts exactly the cap and rejects one byte more", () => {
    const atCap = "x".repeat(OUTPUT_CONTRACT_BYTES.candidate - 2);
    expect(exceedsOutputContract("candidate", atCap)).toBe(false);
    expect(exceedsOutputContract("candidate", `${atCap}x`)).toBe(true);
    // a newline renders as two bytes, so fewer characters reach the cap
    expect(exceedsOutputContract("candidate", `${atCap.slice(1)}\n`)).toBe(true);
  });
});

describe("utilisationBp", () => {
  it("floors basis points and treats an empty allowance as full", () => {
    expect(utilisationBp(8000, 10000)).toBe(8000);
    expect(utilisationBp(7999, 10000)).toBe(7999);
    expect(utilisationBp(1, 3)).toBe(3333);
    expect(utilisationBp(5, 0)).toBeGreaterThan(10000);
    expect(utilisationBp(0, 0)).toBe(0);
  });
});

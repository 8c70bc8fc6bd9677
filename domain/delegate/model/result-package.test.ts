import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJsonOf, sha256Hex } from "../../shared/model/canonical-json.ts";
import { attestation } from "./delegate-fixtures.test-support.ts";
import { buildResultPackage, type DelegateResultPackage, type ResultIdentity } from "./result-package.ts";
import { strictBase64, verifyResultPackage } from "./delegate-result-verification.ts";
import { attestMessage, attestationMatches, observedUsage } from "./route-attestation.ts";

const identity: ResultIdentity = {
  taskId: "dtask",
  launchNonce: "a".repeat(32),
  seedSha256: "b".repeat(64),
  route: { provider: "p", model: "big" },
};
const counters = { turns: 2, tool_calls: 1, spilled_results: 0, tool_output_bytes: 10 };
const encoder = new TextEncoder();

function pack(answer: string, attestations = [attestation(0, { stop_reason: "toolUse" }), attestation(1)]) {
  const built = buildResultPackage(identity, answer, attestations, counters);
  if (!built.ok) throw new Error(built.error.message);
  return built.value;
}

const verify = (bytes: Uint8Array, expected: ResultIdentity = identity) =>
  verifyResultPackage(bytes, expected, "/d/result.json");
const codeOf = (bytes: Uint8Array, expected?: ResultIdentity) => {
  const verified = verify(bytes, expected);
  return verified.ok ? "verified" : verified.error.code;
};
const reseal = (pkg: DelegateResultPackage): Uint8Array => {
  const { package_sha256: _old, ...body } = pkg;
  return encoder.encode(canonicalJsonOf({ ...body, package_sha256: sha256Hex(canonicalJsonOf(body)) }));
};

describe("delegate result package", () => {
  it("round-trips a multi-block, multi-byte answer exactly, with summed usage", () => {
    const answer = `${"é".repeat(20_000)} — ${"z".repeat(10_000)} 🎉\n`;
    const { pkg, json } = pack(answer);
    expect(pkg.answer.blocks.length).toBeGreaterThan(2);
    expect(pkg.usage).toMatchObject({ input: 20, output: 10, totalTokens: 30 });
    const verified = verify(encoder.encode(json));
    expect(verified.ok && verified.value.text).toBe(answer);
    expect(verified.ok && verified.value.sha256).toBe(sha256Hex(encoder.encode(answer)));
  });

  it("records usage a provider did not report as unavailable, never zero", () => {
    const zero = {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    };
    expect(observedUsage(zero)).toBe("unavailable");
    expect(observedUsage(undefined)).toBe("unavailable");
    expect(pack("ok", [attestation(0, { usage: "unavailable" })]).pkg.usage).toBe("unavailable");
  });

  it("refuses to build a blank answer or one with a lone surrogate", () => {
    expect(buildResultPackage(identity, " \n\t", [attestation(0)], counters)).toMatchObject({
      ok: false,
      error: { code: "child_result_invalid" },
    });
    expect(buildResultPackage(identity, "bad \udc00", [attestation(0)], counters)).toMatchObject({
      ok: false,
      error: { code: "child_result_encoding_invalid" },
    });
  });

  it("catches every single corrupted byte anywhere in the file", () => {
    const bytes = encoder.encode(pack("The answer is 42.\n".repeat(50)).json);
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const corrupted = bytes.slice();
        corrupted[at] = (corrupted[at] ?? 0) ^ flip;
        expect(verify(corrupted).ok).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it("names the integrity failure precisely", () => {
    const { pkg } = pack("hello world");
    const block = pkg.answer.blocks[0];
    if (block === undefined) throw new Error("no block");
    const altered = {
      ...pkg,
      answer: { ...pkg.answer, blocks: [{ ...block, base64: Buffer.from("hello wOrld").toString("base64") }] },
    };
    expect(codeOf(reseal(altered))).toBe("answer_hash_mismatch");
    const padded = { ...pkg, answer: { ...pkg.answer, blocks: [{ ...block, base64: `${block.base64}=` }] } };
    expect(codeOf(reseal(padded))).toBe("child_result_encoding_invalid");
    expect(codeOf(reseal({ ...pkg, seed_sha256: "c".repeat(64) }))).toBe("seed_hash_mismatch");
    expect(codeOf(reseal({ ...pkg, launch_nonce: "f".repeat(32) }))).toBe("child_result_invalid");
    expect(codeOf(reseal({ ...pkg, route_attestations: [] }))).toBe("route_attestation_missing");
    expect(codeOf(reseal({ ...pkg, route_attestations: [attestation(0, { model: "other" })] }))).toBe("route_mismatch");
    expect(codeOf(reseal({ ...pkg, route: { provider: "p", model: "other" } }))).toBe("route_mismatch");
    expect(codeOf(reseal({ ...pkg, route_attestations: [attestation(0, { stop_reason: "length" })] }))).toBe(
      "child_result_invalid",
    );
    expect(codeOf(encoder.encode(`${canonicalJsonOf(pkg)} `))).toBe("child_result_invalid");
    expect(codeOf(new Uint8Array([0xff, 0xfe]))).toBe("child_result_encoding_invalid");
    expect(codeOf(encoder.encode(canonicalJsonOf(pkg)), { ...identity, taskId: "other" })).toBe("child_result_invalid");
  });

  it("accepts only canonical base64", () => {
    expect(strictBase64("aGk=")).toEqual(new Uint8Array([104, 105]));
    for (const bad of ["aGk", "aGk==", "a Gk=", "aGl=", "aGk=\n", "-_8="]) expect(strictBase64(bad)).toBeUndefined();
  });
});

describe("route attestation", () => {
  const pinned = { provider: "p", model: "gpt-x" };
  it("requires the pinned provider and model; a dated snapshot name is the same route", () => {
    const of = (m: Record<string, unknown>) =>
      attestationMatches(pinned, attestMessage(0, { provider: "p", model: "gpt-x", stopReason: "stop", ...m }));
    expect(of({})).toBe(true);
    expect(of({ responseModel: "gpt-x-2024-08-06" })).toBe(true);
    expect(of({ responseModel: "gpt-x-20241022" })).toBe(true);
    expect(of({ responseModel: "gpt-x-mini" })).toBe(false);
    expect(of({ responseModel: "other" })).toBe(false);
    expect(of({ model: "gpt-y" })).toBe(false);
    expect(of({ provider: "q" })).toBe(false);
  });
});

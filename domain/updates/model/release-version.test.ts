import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareReleaseVersions, formatReleaseVersion, parseReleaseVersion } from "./release-version.ts";

const v = (text: string) => {
  const parsed = parseReleaseVersion(text);
  if (parsed === undefined) throw new Error(`not a version: ${text}`);
  return parsed;
};
const cmp = (a: string, b: string) => compareReleaseVersions(v(a), v(b));

describe("release versions", () => {
  it("orders the semver.org §11 example chain strictly", () => {
    const chain = [
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
      "1.0.1",
      "1.1.0",
      "2.0.0",
      "10.0.0",
    ];
    for (let i = 0; i < chain.length; i++)
      for (let j = 0; j < chain.length; j++)
        expect(Math.sign(cmp(chain[i] ?? "", chain[j] ?? "")), `${chain[i]} vs ${chain[j]}`).toBe(Math.sign(i - j));
  });

  it("a pre-release is older than its release and newer than the release before", () => {
    expect(cmp("0.11.0-rc.1", "0.11.0")).toBeLessThan(0);
    expect(cmp("0.11.0-rc.1", "0.10.0")).toBeGreaterThan(0);
  });

  it("ignores build metadata and a leading v", () => {
    expect(cmp("1.2.3+build.9", "v1.2.3")).toBe(0);
    expect(formatReleaseVersion(v("v1.2.3-rc.1+sha.abc"))).toBe("1.2.3-rc.1");
  });

  it("refuses what is not a semantic version", () => {
    for (const text of ["", "1.2", "1.2.3.4", "01.2.3", "1.2.3-", "1.2.3-01", "latest", "1.2.x", "1.2.3-a..b"])
      expect(parseReleaseVersion(text), text).toBeUndefined();
  });

  const version = fc
    .record({
      major: fc.nat(20),
      minor: fc.nat(20),
      patch: fc.nat(20),
      pre: fc.array(fc.oneof(fc.nat(12).map(String), fc.constantFrom("alpha", "beta", "rc", "x-1")), { maxLength: 3 }),
    })
    .map(({ major, minor, patch, pre }) => `${major}.${minor}.${patch}${pre.length > 0 ? `-${pre.join(".")}` : ""}`);

  it("is a total order: antisymmetric, transitive, and 0 only for the same version", () => {
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        expect(Math.sign(cmp(a, b))).toBe(-Math.sign(cmp(b, a)) || 0);
        expect(cmp(a, b) === 0).toBe(a === b);
        if (cmp(a, b) <= 0 && cmp(b, c) <= 0) expect(cmp(a, c)).toBeLessThanOrEqual(0);
        expect(formatReleaseVersion(v(a))).toBe(a);
      }),
    );
  });
});

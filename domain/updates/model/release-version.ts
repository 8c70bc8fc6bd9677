/** A semantic version (semver.org 2.0.0); build metadata is kept out, it takes no part in precedence. */
export interface ReleaseVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** Dot-separated pre-release identifiers; empty for a release. */
  readonly prerelease: readonly string[];
}

const NUMERIC = /^(0|[1-9]\d*)$/;
const IDENTIFIER = /^[0-9A-Za-z-]+$/;
const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** Parses `1.2.3`, `v1.2.3-rc.1+build.5`; undefined for anything that is not a semantic version. */
export function parseReleaseVersion(text: string): ReleaseVersion | undefined {
  const match = SEMVER.exec(text.trim());
  if (match === null) return undefined;
  const [major, minor, patch] = [match[1], match[2], match[3]].map(Number);
  if (![major, minor, patch].every((n) => n !== undefined && Number.isSafeInteger(n))) return undefined;
  const prerelease = match[4] === undefined ? [] : match[4].split(".");
  // A numeric pre-release identifier has no leading zero (semver §9).
  if (prerelease.some((id) => !IDENTIFIER.test(id) || (/^\d+$/.test(id) && !NUMERIC.test(id)))) return undefined;
  return { major: major ?? 0, minor: minor ?? 0, patch: patch ?? 0, prerelease };
}

function compareIdentifiers(a: string, b: string): number {
  const [aNum, bNum] = [NUMERIC.test(a), NUMERIC.test(b)];
  if (aNum && bNum) return Math.sign(Number(a) - Number(b));
  // Numeric identifiers have lower precedence than alphanumeric ones; alphanumerics compare in ASCII order.
  if (aNum !== bNum) return aNum ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Semver precedence: negative when `a` is older, 0 when equal, positive when newer. A pre-release is older than its release. */
export function compareReleaseVersions(a: ReleaseVersion, b: ReleaseVersion): number {
  for (const key of ["major", "minor", "patch"] as const) if (a[key] !== b[key]) return Math.sign(a[key] - b[key]);
  if (a.prerelease.length === 0 || b.prerelease.length === 0)
    return Math.sign(b.prerelease.length - a.prerelease.length) || 0;
  const shared = Math.min(a.prerelease.length, b.prerelease.length);
  for (let i = 0; i < shared; i++) {
    const order = compareIdentifiers(a.prerelease[i] ?? "", b.prerelease[i] ?? "");
    if (order !== 0) return order;
  }
  return Math.sign(a.prerelease.length - b.prerelease.length);
}

export function formatReleaseVersion(version: ReleaseVersion): string {
  const core = `${version.major}.${version.minor}.${version.patch}`;
  return version.prerelease.length === 0 ? core : `${core}-${version.prerelease.join(".")}`;
}

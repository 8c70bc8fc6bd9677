import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../domain/shared/model/canonical-json.ts";
import {
  buildSecretWindows,
  containsSecretWindow,
  serialiseSecretWindows,
} from "../../../domain/web/model/secret-windows.ts";
import { egressGuardFromEnv } from "./egress-guard-file.ts";

const SECRET = "sk-test-0123456789abcdefghijklmnop";
const text = serialiseSecretWindows(buildSecretWindows([SECRET], new Uint8Array(16).fill(1)).windows);
const dir = mkdtempSync(join(tmpdir(), "egress-guard-"));
const file = join(dir, "windows.json");
writeFileSync(file, text);
const link = join(dir, "link.json");
symlinkSync(file, link);
const digest = sha256Hex(text);
const env = (path?: string, sha?: string) => ({
  PI_FUSION_SECRET_WINDOWS_PATH: path,
  PI_FUSION_SECRET_WINDOWS_SHA256: sha,
});

describe("egressGuardFromEnv", () => {
  it("is no guard when neither variable is set", () => {
    expect(egressGuardFromEnv(env())).toBeUndefined();
  });

  it("loads the windows file whose digest matches", () => {
    const guard = egressGuardFromEnv(env(file, digest));
    expect(guard?.ok && containsSecretWindow(guard.value, new TextEncoder().encode(SECRET))).toBe(true);
  });

  it.each([
    ["the digest without the path", env(undefined, digest), /set without PI_FUSION_SECRET_WINDOWS_PATH/],
    ["the path without the digest", env(file), /must be the SHA-256 hex/],
    ["an uppercase digest", env(file, digest.toUpperCase()), /must be the SHA-256 hex/],
    ["another file's digest", env(file, sha256Hex("other")), /does not match/],
    ["a missing file", env(join(dir, "absent.json"), digest), /cannot be read/],
    ["a symlink", env(link, digest), /cannot be read/],
    ["a directory", env(dir, digest), /cannot be read/],
  ])("is unavailable with %s", (_, vars, message) => {
    const guard = egressGuardFromEnv(vars);
    expect(guard?.ok === false && guard.error).toMatchObject({ code: "egress_guard_unavailable", message });
  });

  it("is unavailable when a file with the right digest is not a windows file", () => {
    const bogus = join(dir, "bogus.json");
    writeFileSync(bogus, "{}");
    const guard = egressGuardFromEnv(env(bogus, sha256Hex("{}")));
    expect(guard?.ok === false && guard.error.message).toMatch(/secret-windows file is unusable/);
  });
});

import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { admitDelegate } from "../../../domain/delegate/model/delegate-admission.ts";
import { admissionInput } from "../../../domain/delegate/model/delegate-fixtures.test-support.ts";
import { BASELINE_PI_FLAGS } from "../../../domain/shared/model/pi-cli-flags.ts";
import { buildLaunchPlan } from "../../../domain/delegate/model/delegate-launch-plan.ts";
import { canonicalJsonOf, sha256Hex } from "../../../domain/shared/model/canonical-json.ts";
import { bootGuard } from "./delegate-guard-boot.ts";
import { readRangeSync, readWholeSync, writeAtomicSync } from "./delegate-guard-files.ts";

const root = mkdtempSync(join(tmpdir(), "guard-boot-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The files and env a parent leaves for a child, built by the real admission and launch plan. */
function launchFiles(name: string) {
  const admitted = admitDelegate(admissionInput());
  if (!admitted.ok) throw new Error(admitted.error.message);
  const { seed, childPrompt } = admitted.value;
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const nonce = "e".repeat(32);
  const plan = buildLaunchPlan({
    nodePath: "node",
    cliPath: "cli",
    artifactDir: dir,
    childSessionId: `delegate-${"1".repeat(32)}`,
    guardExtensionPath: "g",
    route: admitted.value.route,
    seedSha256: seed.seedSha256,
    taskId: "dboot",
    launchNonce: nonce,
    readScope: { root: dir, denied: [] },
    flags: BASELINE_PI_FLAGS,
  });
  writeFileSync(join(dir, "seed.json"), seed.seedJson);
  writeFileSync(join(dir, "child-prompt.txt"), childPrompt);
  const manifest = {
    task_id: "dboot",
    launch_nonce: nonce,
    seed_sha256: seed.seedSha256,
    child_prompt_sha256: sha256Hex(childPrompt),
  };
  writeFileSync(join(dir, "manifest.json"), canonicalJsonOf(manifest));
  return { dir, env: plan.env as Record<string, string>, seed, childPrompt, manifest };
}

describe("delegate guard boot", () => {
  it("verifies seed hash, task id, nonce and the prompt's seed before any model call", () => {
    const files = launchFiles("ok");
    const boot = bootGuard(files.env);
    expect(boot.ok && boot.value).toMatchObject({
      taskId: "dboot",
      prompt: files.childPrompt,
      route: { provider: "p", model: "big" },
      limits: { maxTurns: 24, maxToolCalls: 120, perResultBytes: 65_536 },
    });
  });

  it("fails closed, naming why, on every mismatch", () => {
    const cases: [string, (f: ReturnType<typeof launchFiles>) => Record<string, string>][] = [
      [
        "seed.json hashes to",
        (f) => (writeFileSync(join(f.dir, "seed.json"), f.seed.seedJson.replace("Review", "Reviev")), f.env),
      ],
      ["does not bind this seed", (f) => ({ ...f.env, PI_BG_DELEGATE_TASK_ID: "dother" })],
      [
        "does not bind this seed",
        (f) => (
          writeFileSync(join(f.dir, "manifest.json"), canonicalJsonOf({ ...f.manifest, launch_nonce: "0".repeat(32) })),
          f.env
        ),
      ],
      [
        "child-prompt.txt does not match",
        (f) => (writeFileSync(join(f.dir, "child-prompt.txt"), `${f.childPrompt} `), f.env),
      ],
      ["LAUNCH_NONCE is missing", (f) => ({ ...f.env, PI_BG_DELEGATE_LAUNCH_NONCE: "short" })],
      ["does not name the seed", (f) => ({ ...f.env, PI_BG_DELEGATE_SEED_PATH: "/etc/passwd" })],
    ];
    cases.forEach(([why, spoil], i) => {
      const files = launchFiles(`bad-${i}`);
      const boot = bootGuard(spoil(files));
      expect(boot.ok ? "booted" : boot.error.reason).toContain(why);
      expect(boot.ok ? undefined : boot.error.artifactDir).toBe(files.dir);
    });
  });
});

describe("guard file helpers", () => {
  it("read exactly the requested range or refuse, never clamp", () => {
    const path = join(root, "range.bin");
    writeAtomicSync(path, new TextEncoder().encode("0123456789"));
    expect(readRangeSync(path, 2, 3).toString()).toBe("234");
    expect(readRangeSync(path, 0, 10).toString()).toBe("0123456789");
    expect(() => readRangeSync(path, 8, 3)).toThrow(/past the end/);
  });

  it("refuse a planted artifact (symlink, hard link, FIFO, directory, symlinked directory) as untrusted_file", () => {
    const dir = mkdtempSync(join(root, "planted-"));
    const foreign = join(dir, "foreign.txt");
    writeFileSync(foreign, "bytes of a file elsewhere");
    symlinkSync(foreign, join(dir, "symlink"));
    linkSync(foreign, join(dir, "hard"));
    execFileSync("mkfifo", [join(dir, "fifo")]);
    mkdirSync(join(dir, "directory"));
    symlinkSync(dir, join(dir, "linked-dir"));
    for (const name of ["symlink", "hard", "fifo", "directory", "linked-dir/foreign.txt"]) {
      const path = join(dir, name);
      expect(() => readWholeSync(path)).toThrow(`${path} `);
      expect(() => readRangeSync(path, 0, 0)).toThrow(/untrusted_file/);
    }
  });
});

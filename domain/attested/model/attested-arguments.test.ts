import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeAttestedRunArguments } from "./attested-arguments.ts";
import { logicalPiArgv } from "./attested-pi-argv.ts";
import { credentialClassOf } from "./credential-class.ts";
import { checkExtraPiArgs } from "./extra-pi-args.ts";
import { isInside, normalizeReportPath } from "./report-path.ts";

const VALID = {
  name: "review",
  provider: "scripted",
  model: "inner",
  prompt: "  Review the diff.\n",
  reportPath: "reports/review.md",
};
const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? "ok" : r.error?.code);

describe("bg_run_pi_attested arguments", () => {
  it("normalises: trims names, keeps the prompt byte for byte, resolves the report path, floors the timeout", () => {
    const r = normalizeAttestedRunArguments({
      ...VALID,
      name: " review ",
      provider: " anthropic ",
      reportPath: "./a/../reports//r.md",
      timeoutSeconds: 9.7,
      thinking: "high",
    });
    expect(r).toEqual({
      ok: true,
      value: {
        name: "review",
        provider: "anthropic",
        model: "inner",
        prompt: VALID.prompt,
        reportPath: "reports/r.md",
        extraPiArgs: [],
        thinking: "high",
        timeoutSeconds: 9,
      },
    });
    if (r.ok)
      expect(logicalPiArgv(r.value)).toEqual([
        "pi",
        "--mode",
        "json",
        "--provider",
        "anthropic",
        "--model",
        "inner",
        "--thinking",
        "high",
      ]);
  });

  it("is idempotent on its own output", () => {
    const first = normalizeAttestedRunArguments({ ...VALID, extraPiArgs: ["--no-session"] });
    if (!first.ok) throw new Error(first.error.message);
    expect(normalizeAttestedRunArguments(first.value)).toEqual(first);
  });

  it.each([
    ["a missing report path", { reportPath: undefined }, "invalid_arguments"],
    ["an unknown key", { extra: 1 }, "invalid_arguments"],
    ["a blank prompt", { prompt: "  \n" }, "invalid_arguments"],
    ["a provider that looks like a flag", { provider: "--api-key" }, "invalid_arguments"],
    ["a model that looks like a flag", { model: "-p" }, "invalid_arguments"],
    ["an unknown thinking level", { thinking: "max" }, "invalid_arguments"],
    ["a string timeout", { timeoutSeconds: "10" }, "invalid_arguments"],
  ])("rejects %s", (_label, patch, expected) => {
    expect(code(normalizeAttestedRunArguments({ ...VALID, ...patch }))).toBe(expected);
  });
});

describe("extraPiArgs", () => {
  it.each([
    [["--api-key", "sk-x"], "attested_pi_argument_refused"],
    [["--api-key=sk-x"], "attested_pi_argument_refused"],
    [["--auth-file", "/tmp/a.json"], "attested_pi_argument_refused"],
    [["-p"], "attested_pi_argument_refused"],
    [["--print"], "attested_pi_argument_refused"],
    [["--mode", "text"], "attested_pi_argument_refused"],
    [["--provider", "openai"], "attested_pi_argument_duplicate"],
    [["--model=gpt"], "attested_pi_argument_duplicate"],
    [["--thinking", "low"], "attested_pi_argument_duplicate"],
    [["@secrets.txt"], "attested_prompt_argument_refused"],
    [["extra words"], "attested_prompt_argument_refused"],
    [["--no-session", "hello"], "attested_prompt_argument_refused"],
    [["--tools", "read", "and more"], "attested_prompt_argument_refused"],
  ])("refuses %j with %s", (args, expected) => {
    expect(code(checkExtraPiArgs(args))).toBe(expected);
    expect(code(normalizeAttestedRunArguments({ ...VALID, extraPiArgs: args }))).toBe(expected);
  });

  it.each([
    [[]],
    [["--no-session", "--no-extensions"]],
    [["--tools", "read,write", "--offline"]],
    [["--append-system-prompt", "be brief"]],
    [["--some-extension-flag", "value", "-e", "./ext.ts"]],
    [["--flag=value"]],
  ])("accepts %j", (args) => expect(checkExtraPiArgs(args).ok).toBe(true));

  it("a refused flag is found wherever it appears among harmless ones", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("--no-session", "--offline", "--verbose", "-nc"), { maxLength: 6 }),
        fc.nat(6),
        fc.constantFrom("--api-key", "--auth-file", "-p", "--print", "--mode"),
        (safe, at, bad) => {
          const args = [...safe.slice(0, at), bad, ...safe.slice(at)];
          expect(code(checkExtraPiArgs(args))).toBe("attested_pi_argument_refused");
        },
      ),
    );
  });
});

describe("reportPath", () => {
  it.each([
    ["/etc/passwd", "must be relative"],
    ["C:/x.md", "must be relative"],
    ["~/x.md", "must be relative"],
    ["../outside.md", "escapes"],
    ["a/../../outside.md", "escapes"],
    [".git/config", "under .git/"],
    ["sub/.git/hooks/x", "under .git/"],
    [".pi/tasks/x.md", "under .pi/"],
    ["./.pi/settings.json", "under .pi/"],
    [".", "working directory itself"],
    ["a\\b.md", "backslash"],
  ])("refuses %s", (path, why) => {
    const r = normalizeReportPath(path);
    expect(r.ok ? "ok" : r.error.message).toContain(why);
    expect(r.ok ? "ok" : r.error.code).toBe("attested_report_path_refused");
  });

  it("normalised paths never escape and never start with .pi or contain .git", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", "..", ".", "", ".pi", ".git", "r.md"), { maxLength: 8 }),
        (segments) => {
          const r = normalizeReportPath(segments.join("/"));
          if (!r.ok) return;
          const parts = r.value.split("/");
          expect(parts).not.toContain("..");
          expect(parts).not.toContain(".git");
          expect(parts[0]).not.toBe(".pi");
          expect(isInside(`/w/${r.value}`, "/w")).toBe(true);
        },
      ),
    );
  });

  it("isInside compares whole path segments", () => {
    expect(isInside("/w/a", "/w")).toBe(true);
    expect(isInside("/work/a", "/w")).toBe(false);
    expect(isInside("/w", "/w")).toBe(false);
  });
});

describe("credential class", () => {
  it.each([
    ["openai-codex", true, "pi-codex-oauth", "subscription-codex"],
    ["anthropic", true, "pi-anthropic-oauth", "subscription-anthropic"],
    ["github-copilot", true, "pi-oauth-other", "subscription-github-copilot"],
    ["anthropic", false, "api-key-or-local", "api-or-local"],
    ["scripted", false, "api-key-or-local", "api-or-local"],
  ] as const)("%s with OAuth=%s is %s", (provider, oauth, authClass, channel) => {
    expect(credentialClassOf(provider, oauth)).toMatchObject({ authClass, channel });
  });
});

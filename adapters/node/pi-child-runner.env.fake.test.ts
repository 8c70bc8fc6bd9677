import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { confinedChildEnv } from "./confined-child-env.ts";
import { PiChildRunner } from "./pi-child-runner.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";
import { FAKE_CLI, never, prepared, recorded, setup } from "./pi-child-runner.test-support.ts";
import { SystemClock } from "./system-clock.ts";

// The exploit of issue 17 item 1, environment half: a Fusion stage's child is a model that may be hijacked,
// and every variable it inherits is readable by it. It gets what Pi needs and its own route's credential only.
const CREDENTIALS = {
  GEMINI_API_KEY: "gemini-canary",
  GROQ_API_KEY: "groq-canary",
  XAI_API_KEY: "xai-canary",
  MISTRAL_API_KEY: "mistral-canary",
  AWS_SECRET_ACCESS_KEY: "aws-canary",
  AWS_ACCESS_KEY_ID: "aws-id-canary",
  GH_TOKEN: "gh-canary",
  HF_TOKEN: "hf-canary",
  ANTHROPIC_OAUTH_TOKEN: "anthropic-oauth-canary",
  DATABASE_PASSWORD: "db-canary",
  MY_SERVICE_SECRET: "service-canary",
  STRIPE_KEY: "stripe-canary",
};
const RUNTIME = { PATH: "/usr/bin:/bin", HOME: "/home/u", LANG: "C.UTF-8", LC_ALL: "C", https_proxy: "http://p:3128" };

function runnerWith(baseEnv: Record<string, string>, dir: string): PiChildRunner {
  return new PiChildRunner({
    childExtensionPath: FAKE_CLI,
    anthropicSanitizerPath: FAKE_CLI,
    files: new NodeFileCommitter(),
    clock: new SystemClock(),
    baseEnv: { ...baseEnv, PI_CODING_AGENT_DIR: dir },
    cli: { cliPath: FAKE_CLI, version: undefined, source: "env" },
    limits: { killGraceMs: 300 },
  });
}

describe("a Fusion stage's child environment is an allowlist", () => {
  it("carries no credential of another provider, nor any other secret-looking variable of the parent", async () => {
    const s = setup("ok");
    const runner = runnerWith({ ...RUNTIME, ...CREDENTIALS, PATH: process.env.PATH ?? "/usr/bin" }, s.dir);
    const route = { provider: "groq", model: "llama", thinking: "off" };
    const result = await prepared({ ...s, runner, spec: { ...s.spec, route } }).send("p", never());
    expect(result.ok).toBe(true);
    const { envKeys } = await recorded(s);
    const inherited = Object.keys(CREDENTIALS).filter((name) => envKeys.includes(name));
    expect(inherited).toEqual(["GROQ_API_KEY"]);
    for (const name of ["HOME", "LANG", "LC_ALL", "https_proxy", "PI_CODING_AGENT_DIR"])
      expect(envKeys).toContain(name);
  });

  it("passes the variable a models.json provider's apiKey names, and nothing for an unknown provider", async () => {
    const s = setup("ok");
    const models = { providers: { corp: { apiKey: "CORP_LLM_KEY", headers: { "x-team": "CORP_TEAM_TOKEN" } } } };
    await import("node:fs/promises").then((fs) => fs.writeFile(`${s.dir}/models.json`, JSON.stringify(models)));
    const base = { PATH: process.env.PATH ?? "/usr/bin", CORP_LLM_KEY: "k", CORP_TEAM_TOKEN: "t", ...CREDENTIALS };
    const runner = runnerWith(base, s.dir);
    const corp = { provider: "corp", model: "m", thinking: "off" };
    expect((await prepared({ ...s, runner, spec: { ...s.spec, route: corp } }).send("p", never())).ok).toBe(true);
    const { envKeys } = await recorded(s);
    expect(envKeys.filter((n) => n in base && n !== "PATH").sort()).toEqual(["CORP_LLM_KEY", "CORP_TEAM_TOKEN"]);
    expect(JSON.parse(readFileSync(`${s.dir}/models.json`, "utf8"))).toEqual(models);
  });
});

describe("confinedChildEnv", () => {
  it("lets a stage set its protocol variables but no credential-looking one, and never inherits the protocol", () => {
    const parent = { PI_FUSION_TOOL_CALL_LOG_PATH: "/stray.jsonl", PI_FUSION_WEB_FETCH_TEST_SEAM: "1" };
    expect(confinedChildEnv(parent, "groq", { PI_FUSION_RESEARCH_ENABLED: "1" })).toEqual({
      PI_FUSION_WEB_FETCH_TEST_SEAM: "1",
      PI_SKIP_VERSION_CHECK: "1",
      PI_FUSION_RESEARCH_ENABLED: "1",
    });
    for (const name of ["OPENAI_API_KEY", "GEMINI_API_KEY", "SOME_TOKEN", "DB_PASSWORD", "APP_SECRET"])
      expect(() => confinedChildEnv({}, "groq", { [name]: "x" })).toThrow(`credential variable ${name}`);
  });
});

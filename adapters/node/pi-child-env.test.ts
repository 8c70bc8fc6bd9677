import { describe, expect, it } from "vitest";
import { piChildEnv, isStrippedFromChild } from "./pi-child-env.ts";

describe("piChildEnv", () => {
  it("strips credential and session variables case-insensitively and keeps the rest", () => {
    const parent = {
      PATH: "/bin",
      HOME: "/home/u",
      PI_CODING_AGENT_DIR: "/agent",
      PI_SESSION_ID: "s",
      pi_session_file: "f",
      PI_PROVIDER: "p",
      PI_MODEL: "m",
      PI_REASONING_LEVEL: "high",
      OPENAI_API_KEY: "canary",
      openai_base_url: "u",
      ANTHROPIC_API_KEY: "k",
      Anthropic_Auth_Token: "t",
      ANTHROPIC_BASE_URL: "b",
      OPENROUTER_API_KEY: "o",
      AZURE_OPENAI_ENDPOINT: "a",
      PI_API_KEY: "k",
      PI_API_BASE_URL: "u",
      PI_AUTH_FILE: "f",
      ANTHROPIC_MODEL: "kept: not in the list",
      MY_OPENAI_THING: "kept: prefix only",
      UNDEFINED_ONE: undefined,
    };
    expect(piChildEnv(parent, { PI_FUSION_TOOL_CALL_LOG_PATH: "/run/x.jsonl" })).toEqual({
      PATH: "/bin",
      HOME: "/home/u",
      PI_CODING_AGENT_DIR: "/agent",
      ANTHROPIC_MODEL: "kept: not in the list",
      MY_OPENAI_THING: "kept: prefix only",
      PI_SKIP_VERSION_CHECK: "1",
      PI_FUSION_TOOL_CALL_LOG_PATH: "/run/x.jsonl",
    });
  });

  it("never inherits the candidate protocol variables, keeps the test seam, and lets the stage set them", () => {
    const parent = {
      PI_FUSION_TOOL_CALL_LOG_PATH: "/stray.jsonl",
      PI_FUSION_RESEARCH_ENABLED: "1",
      PI_FUSION_WEB_FETCH_TEST_SEAM: "1",
      PI_FUSION_WEB_FETCH_TEST_ADMIT_CIDR: "127.0.0.0/8",
    };
    expect(piChildEnv(parent)).toEqual({
      PI_FUSION_WEB_FETCH_TEST_SEAM: "1",
      PI_FUSION_WEB_FETCH_TEST_ADMIT_CIDR: "127.0.0.0/8",
      PI_SKIP_VERSION_CHECK: "1",
    });
    const stage = { PI_FUSION_TOOL_CALL_LOG_PATH: "/run/c.jsonl", PI_FUSION_RESEARCH_ENABLED: "1" };
    expect(piChildEnv(parent, stage)).toMatchObject(stage);
  });

  it("PI_SKIP_VERSION_CHECK is forced to 1", () => {
    expect(piChildEnv({ PI_SKIP_VERSION_CHECK: "0" }).PI_SKIP_VERSION_CHECK).toBe("1");
  });

  it("a stage may not smuggle a credential variable back in", () => {
    expect(() => piChildEnv({}, { OPENAI_API_KEY: "x" })).toThrow(/credential variable OPENAI_API_KEY/);
    expect(isStrippedFromChild("azure_openai_api_key")).toBe(true);
    expect(isStrippedFromChild("AZURE_API_KEY")).toBe(false);
  });
});

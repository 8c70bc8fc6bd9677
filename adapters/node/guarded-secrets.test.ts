import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { guardedSecretValues } from "./guarded-secrets.ts";

describe("guardedSecretValues", () => {
  it("holds every credential-named variable and every string of auth.json, and nothing else", () => {
    const agentDir = mkdtempSync(join(tmpdir(), "guarded-"));
    const auth = { anthropic: { type: "oauth", access: "oauth-access-canary", refresh: "oauth-refresh-canary" } };
    writeFileSync(join(agentDir, "auth.json"), JSON.stringify(auth));
    const env = {
      PI_CODING_AGENT_DIR: agentDir,
      GROQ_API_KEY: "groq-canary",
      AWS_SECRET_ACCESS_KEY: "aws-canary",
      AWS_BEARER_TOKEN_BEDROCK: "bedrock-canary",
      DB_PASSWORD: "db-canary",
      PATH: "/usr/bin",
      HOME: "/home/u",
    };
    expect(guardedSecretValues(env).sort()).toEqual(
      [
        "aws-canary",
        "bedrock-canary",
        "db-canary",
        "groq-canary",
        "oauth",
        "oauth-access-canary",
        "oauth-refresh-canary",
      ].sort(),
    );
  });
});

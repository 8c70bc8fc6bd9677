import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePiHelpFlags } from "./pi-cli-flags.ts";

// `pi --help` exactly as Pi 0.73.1 and Pi 1.6.0 print it (install paths shortened).
const help = (version: string) => readFileSync(new URL(`../fixtures/pi-${version}-help.txt`, import.meta.url), "utf8");

describe("parsePiHelpFlags", () => {
  it("Pi 0.73.1 offers a session directory but no session id, no denylist and no MCP switch", () => {
    expect(parsePiHelpFlags(help("0.73.1"))).toEqual({
      excludeTools: false,
      noMcp: false,
      sessionId: false,
      sessionDir: true,
    });
  });

  it("Pi 1.6.0 offers every isolation flag", () => {
    expect(parsePiHelpFlags(help("1.6.0"))).toEqual({
      excludeTools: true,
      noMcp: true,
      sessionId: true,
      sessionDir: true,
    });
  });

  it("reads option lines only, never a flag named in prose or an example", () => {
    const text = [
      "Examples:",
      "  pi --exclude-tools bash",
      "Env:",
      "  PI_X - overridden by --no-mcp",
      "Options:",
      "  --session-id <id>   Use it",
    ].join("\n");
    expect(parsePiHelpFlags(text)).toEqual({ excludeTools: false, noMcp: false, sessionId: true, sessionDir: false });
  });
});

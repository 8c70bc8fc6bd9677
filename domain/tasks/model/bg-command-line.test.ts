import { describe, expect, it } from "vitest";
import { parseBgCommandLine } from "./bg-command-line.ts";

describe("parseBgCommandLine", () => {
  it.each([
    ["npm test", { command: "npm test", isAgent: false }],
    ["--agent pi -p 'hi'", { command: "pi -p 'hi'", isAgent: true }],
    ["--name build -- make -j2", { command: "make -j2", isAgent: false, name: "build" }],
    ['--name "dev server" npm run dev', { command: "npm run dev", isAgent: false, name: "dev server" }],
    ["--name=x --no-agent ls -la", { command: "ls -la", isAgent: false, name: "x" }],
    ["-n api node server.js", { command: "node server.js", isAgent: false, name: "api" }],
    ["-- --weird-binary --flag", { command: "--weird-binary --flag", isAgent: false }],
    ["-x is a command", { command: "-x is a command", isAgent: false }],
  ])("parses %j", (input, expected) => {
    expect(parseBgCommandLine(input)).toEqual({ ok: true, value: expected });
  });

  it.each(["", "   ", "--agent", "--name", "--name x --", "--bogus ls"])("rejects %j with usage", (input) => {
    const r = parseBgCommandLine(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/Usage: \/bg|unknown option/);
  });
});

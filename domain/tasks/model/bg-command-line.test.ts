import { describe, expect, it } from "vitest";
import { bgRunRequest, parseBgCommandLine } from "./bg-command-line.ts";

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

describe("bgRunRequest", () => {
  it("turns a /bg line into a notified task request that starts no agent turn", () => {
    const request = bgRunRequest("--name build make -j2");
    expect(request.ok && request.value).toMatchObject({
      name: "build",
      command: "make -j2",
      isAgent: false,
      notifyOnCompletion: true,
      triggerOnCompletion: false,
    });
  });

  it.each([
    [`--name ${"x".repeat(81)} ls`, /^\/bg: invalid arguments[\s\S]*- --name must not have more than 80 characters/],
    ["ls \u0000 -la", /- the command contains a NUL byte/],
    [`echo ${"y".repeat(100_001)}`, /- the command must not have more than 100000 characters/],
    ["--agent --survive-reload pi -p hi", /- --survive-reload is only for shell tasks/],
  ])("words the problems of %# in /bg's flags, not bg_run's fields", (line, expected) => {
    const request = bgRunRequest(line);
    expect(request.ok).toBe(false);
    if (request.ok) return;
    expect(request.error.message).toMatch(expected);
    expect(request.error.message).toContain("Usage: /bg");
    expect(request.error.message).not.toMatch(/bg_run|'name'|'command'|isAgent|surviveReload/);
  });
});

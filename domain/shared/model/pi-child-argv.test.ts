import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { piChildArgs, piCliLaunch, type PiChildRole } from "./pi-child-argv.ts";
import { parsePiHelpFlags } from "./pi-cli-flags.ts";

const help = (version: string): string =>
  readFileSync(new URL(`../fixtures/pi-${version}-help.txt`, import.meta.url), "utf8");
const PI_073 = parsePiHelpFlags(help("0.73.1"));
const PI_16 = parsePiHelpFlags(help("1.6.0"));

const LEAN = ["--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files", "--offline"];
const route = { provider: "p", model: "m", thinking: "low" };
const tools = { allow: ["read", "ls"], deny: ["bash", "write"] };

describe("piChildArgs: the command line of every child, from the probed flags", () => {
  const fusion: PiChildRole = { role: "fusion-stage", route, tools, extensions: ["/a.ts", "/b.ts"], systemPrompt: "S" };

  it("Fusion stage on Pi 0.73.1: the allowlist alone, no --no-mcp", () => {
    expect(piChildArgs(fusion, PI_073)).toEqual([
      ...["--mode", "text", "--no-session", "--no-builtin-tools", "--tools", "read,ls", "--no-extensions", ...LEAN],
      ...["--extension", "/a.ts", "--extension", "/b.ts"],
      ...["--provider", "p", "--model", "m", "--thinking", "low", "--system-prompt", "S"],
    ]);
  });

  it("Fusion stage on Pi 1.6.0: the denylist and --no-mcp too", () => {
    expect(piChildArgs(fusion, PI_16).slice(3, 10)).toEqual([
      ...["--no-builtin-tools", "--tools", "read,ls", "--exclude-tools", "bash,write"],
      ...["--no-extensions", "--no-mcp"],
    ]);
  });

  it("no tools at all is --no-tools, whatever the denylist", () => {
    expect(piChildArgs({ ...fusion, tools: { allow: [], deny: ["bash"] } }, PI_16)).toContain("--no-tools");
    expect(piChildArgs({ ...fusion, tools: { allow: [], deny: ["bash"] } }, PI_16)).not.toContain("--exclude-tools");
  });

  it("delegate: the task-owned session by id on Pi 1.6.0, by file on Pi 0.73.1", () => {
    const delegate: PiChildRole = {
      role: "delegate",
      route: { provider: "p", model: "m" },
      session: { dir: "/d", id: "delegate-1", file: "/d/delegate-1.jsonl" },
      tools,
      extensions: ["/guard.ts"],
    };
    expect(piChildArgs(delegate, PI_16).slice(0, 6)).toEqual([
      ...["--mode", "json", "--session-dir", "/d", "--session-id", "delegate-1"],
    ]);
    const old = piChildArgs(delegate, PI_073);
    expect(old.slice(0, 4)).toEqual(["--mode", "json", "--session", "/d/delegate-1.jsonl"]);
    expect(old.slice(-6)).toEqual(["--extension", "/guard.ts", "--provider", "p", "--model", "m"]);
  });

  it("hook probe: isolated, its two extensions, the prompt with -p", () => {
    const probe: PiChildRole = {
      role: "hook-probe",
      tools: { allow: ["t"], deny: [] },
      extensions: ["/1", "/2"],
      prompt: "go",
    };
    expect(piChildArgs(probe, PI_16)).toEqual([
      ...[
        "--mode",
        "json",
        "--no-session",
        "--no-builtin-tools",
        "--tools",
        "t",
        "--no-extensions",
        "--no-mcp",
        ...LEAN,
      ],
      ...["--extension", "/1", "--extension", "/2", "-p", "go"],
    ]);
  });

  it("attested: the user's own run, no isolation flag, the extra arguments last", () => {
    const attested: PiChildRole = { role: "attested", route: { provider: "p", model: "m" }, extraArgs: ["--verbose"] };
    expect(piChildArgs(attested, PI_16)).toEqual(["--mode", "json", "--provider", "p", "--model", "m", "--verbose"]);
  });

  it("launches cli.js with node and a standalone pi binary directly", () => {
    expect(piCliLaunch("/n", "/a/cli.js")).toEqual({ file: "/n", args: ["/a/cli.js"] });
    expect(piCliLaunch("/n", "/a/cli.mjs")).toEqual({ file: "/n", args: ["/a/cli.mjs"] });
    expect(piCliLaunch("/n", "/opt/pi")).toEqual({ file: "/opt/pi", args: [] });
  });
});

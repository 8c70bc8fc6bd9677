import { describe, expect, it } from "vitest";
import { BASELINE_PI_FLAGS } from "../../domain/shared/model/pi-cli-flags.ts";
import { buildFusionChildArgv, FUSION_DENIED_TOOLS, type FusionChildArgvInput } from "./fusion-child-argv.ts";

/** What Pi 1.6.0's --help offers (see domain/shared/model/pi-cli-flags.test.ts). */
const PI_1_FLAGS = { excludeTools: true, noMcp: true, sessionId: true, sessionDir: true };

const base: FusionChildArgvInput = {
  cliPath: "/pi/dist/cli.js",
  flags: BASELINE_PI_FLAGS,
  route: { provider: "scripted", model: "scripted-a", thinking: "medium" },
  tools: [],
  systemPrompt: "You are a candidate.\nAnswer.",
  childExtensionPath: "/pkg/adapters/pi/child/fusion-child-extension.ts",
  anthropicSanitizerPath: "/pkg/adapters/pi/child/anthropic-sanitizer-extension.ts",
};

const argv = (over: Partial<FusionChildArgvInput>): string[] => {
  const built = buildFusionChildArgv({ ...base, ...over });
  if (!built.ok) throw new Error(built.error.message);
  return built.value;
};

const LEAN = [
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--offline",
];

describe("buildFusionChildArgv", () => {
  it("no tools: the exact reason-stage argv, prompt not in argv", () => {
    expect(argv({})).toEqual([
      "/pi/dist/cli.js",
      "--mode",
      "text",
      "--no-session",
      "--no-tools",
      ...LEAN,
      "--extension",
      base.childExtensionPath,
      "--provider",
      "scripted",
      "--model",
      "scripted-a",
      "--thinking",
      "medium",
      "--system-prompt",
      "You are a candidate.\nAnswer.",
    ]);
  });

  it("tools on a Pi without the optional flags (0.73.1): --no-builtin-tools + --tools allowlist, no --exclude-tools", () => {
    const args = argv({ tools: ["read", "grep", "find", "ls"] });
    expect(args.slice(3, 7)).toEqual(["--no-session", "--no-builtin-tools", "--tools", "read,grep,find,ls"]);
    expect(args).not.toContain("--exclude-tools");
    expect(args).not.toContain("--no-tools");
  });

  it("where the CLI offers them (Pi 1.x), the denylist and --no-mcp come too", () => {
    const args = argv({ tools: ["read", "fusion_web_fetch"], flags: PI_1_FLAGS });
    expect(args.slice(4, 9)).toEqual([
      "--no-builtin-tools",
      "--tools",
      "read,fusion_web_fetch",
      "--exclude-tools",
      FUSION_DENIED_TOOLS.join(","),
    ]);
    expect(args.slice(9, 11)).toEqual(["--no-extensions", "--no-mcp"]);
    expect(argv({ flags: PI_1_FLAGS })).toContain("--no-mcp");
    expect(argv({ tools: ["read"], flags: { ...PI_1_FLAGS, excludeTools: false } })).not.toContain("--exclude-tools");
  });

  it("anthropic children get the sanitizer as a second extension, after the metadata extension", () => {
    const args = argv({ route: { provider: "anthropic", model: "claude-x", thinking: "high" } });
    const at = args.indexOf("--extension");
    expect(args.slice(at, at + 4)).toEqual([
      "--extension",
      base.childExtensionPath,
      "--extension",
      base.anthropicSanitizerPath,
    ]);
  });

  it("every other provider's argv is byte-identical whatever the sanitizer path is", () => {
    for (const provider of ["scripted", "openai", "Anthropic", "anthropic-vertex"]) {
      const route = { provider, model: "m", thinking: "off" };
      expect(argv({ route, anthropicSanitizerPath: "/elsewhere/x.ts" })).toEqual(argv({ route }));
      expect(argv({ route }).filter((a) => a === "--extension")).toHaveLength(1);
    }
  });

  it("stage extensions come after the metadata extension and the sanitizer, in the order given", () => {
    const extra = [
      "/pkg/adapters/pi/child/fusion-web-fetch-child-extension.ts",
      "/pkg/adapters/pi/child/tool-audit-extension.ts",
    ];
    const args = argv({ tools: ["read", "fusion_web_fetch"], extensions: extra });
    const at = args.indexOf("--extension");
    expect(args.slice(at, at + 6)).toEqual([
      "--extension",
      base.childExtensionPath,
      "--extension",
      extra[0],
      "--extension",
      extra[1],
    ]);
    expect(args[at + 6]).toBe("--provider");
    const anthropic = argv({ route: { provider: "anthropic", model: "c", thinking: "off" }, extensions: extra });
    const from = anthropic.indexOf("--extension");
    expect(anthropic.slice(from, from + 8)).toEqual([
      "--extension",
      base.childExtensionPath,
      "--extension",
      base.anthropicSanitizerPath,
      "--extension",
      extra[0],
      "--extension",
      extra[1],
    ]);
  });

  it("a reason stage's argv is byte-identical with no extensions field, an empty one, or before the field existed", () => {
    const reason = argv({});
    expect(argv({ extensions: [] })).toEqual(reason);
    expect(argv({ extensions: undefined })).toEqual(reason);
    expect(Buffer.from(reason.join("\0")).equals(Buffer.from(argv({ extensions: [] }).join("\0")))).toBe(true);
  });

  const refused: Array<[string, Partial<FusionChildArgvInput>, RegExp]> = [
    ["a relative extension path", { extensions: ["ext.ts"] }, /not absolute/],
    ["a repeated extension", { extensions: ["/x/audit.ts", "/x/audit.ts"] }, /repeats an extension/],
    ["the metadata extension again", { extensions: [base.childExtensionPath] }, /repeats an extension/],
    ["a denied tool", { tools: ["read", "bash"] }, /grants bash/],
    ["a Fusion tool", { tools: ["fusion_brainstorm"] }, /grants fusion_brainstorm/],
    ["a comma in a tool name", { tools: ["read,bash"] }, /not a plain tool name/],
    ["duplicate tools", { tools: ["read", "read"] }, /duplicates/],
    ["a NUL in the system prompt", { systemPrompt: "a\0b" }, /NUL/],
    ["an over-long system prompt", { systemPrompt: "x".repeat(128 * 1024) }, /longer than 131071 bytes/],
  ];
  it.each(refused)("refuses %s before any child exists", (_name, over, message) => {
    const built = buildFusionChildArgv({ ...base, ...over });
    expect(built.ok ? undefined : built.error.code).toBe("child_spawn_failed");
    expect(built.ok ? "" : built.error.message).toMatch(message);
  });
});

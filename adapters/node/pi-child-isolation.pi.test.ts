import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeIsolatedAgentDir, type IsolatedAgentDir } from "../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../fake/scripted-model-server.ts";
import { NodeFileCommitter } from "./node-file-committer.ts";
import { PiChildRunner } from "./pi-child-runner.ts";
import { SystemClock } from "./system-clock.ts";

// A Fusion child on a machine whose user configured Pi richly: an MCP server (this very package's, whose
// bg_run runs shell commands), a skill and an extension in the agent dir, and in the project an AGENTS.md,
// a project MCP server, a project extension and project settings. The child must start with exactly its
// stage's tools and none of that setup: no MCP server started, no extra tool, no context file, no skill.
const here = dirname(fileURLToPath(import.meta.url));
const CHILD_EXTENSION = join(here, "..", "pi", "child", "fusion-child-extension.ts");
const SANITIZER = join(here, "..", "pi", "child", "anthropic-sanitizer-extension.ts");
const CANARY = {
  agents: "AGENTS-CANARY-31",
  skill: "skill-canary-77",
  tool: "user_extension_tool",
  projectTool: "project_extension_tool",
};

let server: ScriptedModelServer;
let agent: IsolatedAgentDir;
let work: string;
let markers: string;

function extension(toolName: string): string {
  return `export default function (pi) { pi.registerTool({ name: ${JSON.stringify(toolName)}, label: "x", description: "x", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [{ type: "text", text: "x" }], details: {} }) }); }\n`;
}

function mcpServer(marker: string): Record<string, unknown> {
  // Starting it at all leaves the marker; it then speaks no MCP, so a host that starts it gets nothing more.
  return { command: "/bin/sh", args: ["-c", `touch ${marker}; sleep 20`], description: "shell tools" };
}

beforeAll(async () => {
  server = await startScriptedModelServer();
  work = mkdtempSync(join(tmpdir(), "pi-child-isolation-"));
  markers = join(work, "markers");
  mkdirSync(markers);
  agent = await writeIsolatedAgentDir({
    dir: join(work, "agent"),
    baseUrl: server.baseUrl,
    extraSettings: { retry: { enabled: false }, defaultTools: ["+codemode", "+tool_search"] },
  });
  writeFileSync(
    join(agent.dir, "mcp.json"),
    JSON.stringify({ mcpServers: { usertools: mcpServer(join(markers, "user-mcp")) } }),
  );
  mkdirSync(join(agent.dir, "extensions"));
  writeFileSync(join(agent.dir, "extensions", "user-tool.js"), extension(CANARY.tool));
  mkdirSync(join(agent.dir, "skills", CANARY.skill), { recursive: true });
  writeFileSync(
    join(agent.dir, "skills", CANARY.skill, "SKILL.md"),
    `---\nname: ${CANARY.skill}\ndescription: use it always\n---\nDo everything.\n`,
  );
  const project = join(work, "project");
  mkdirSync(join(project, ".pi", "extensions"), { recursive: true });
  writeFileSync(join(project, "AGENTS.md"), `Always obey ${CANARY.agents}.\n`);
  writeFileSync(
    join(project, ".pi", "mcp.json"),
    JSON.stringify({ mcpServers: { projecttools: mcpServer(join(markers, "project-mcp")) } }),
  );
  writeFileSync(join(project, ".pi", "extensions", "project-tool.js"), extension(CANARY.projectTool));
  writeFileSync(join(project, ".pi", "settings.json"), JSON.stringify({ defaultTools: ["+bash"] }));
});
afterAll(async () => {
  await server.close();
});

describe("a Fusion child ignores the user's Pi setup", () => {
  it.each([
    ["a reason candidate (no tools)", [] as string[]],
    ["an inspect candidate", ["read", "grep", "find", "ls"]],
  ])("%s gets exactly its stage's tools, no MCP server, no context file, no skill", async (_what, tools) => {
    server.reset();
    const runner = new PiChildRunner({
      childExtensionPath: CHILD_EXTENSION,
      anthropicSanitizerPath: SANITIZER,
      files: new NodeFileCommitter(),
      clock: new SystemClock(),
      baseEnv: { ...process.env, ...agent.env, HOME: work },
    });
    const prefix = `candidate-${tools.length}.attempt-1`;
    const child = runner.prepare({
      runDir: work,
      prefix,
      route: { provider: "scripted", model: "scripted-a", thinking: "off" },
      tools,
      systemPrompt: "You are a candidate.",
      cwd: join(work, "project"),
      env: {},
    });
    if (!child.ok) throw new Error(child.error.message);
    const result = await child.value.send("answer [[text done]]", new AbortController().signal);
    expect(result.ok ? result.value.text : result.error.message).toBe("done");
    const [request] = server.requests;
    const sent = (request?.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name).sort();
    expect(sent).toEqual([...tools].sort());
    const body = JSON.stringify(request?.body.messages);
    for (const canary of [
      CANARY.agents,
      CANARY.skill,
      CANARY.tool,
      CANARY.projectTool,
      "mcp__",
      "usertools",
      "projecttools",
    ])
      expect(body).not.toContain(canary);
    expect([existsSync(join(markers, "user-mcp")), existsSync(join(markers, "project-mcp"))]).toEqual([false, false]);
  });
});

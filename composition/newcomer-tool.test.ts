import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fauxToolCall } from "@mariozechner/pi-ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fauxAssistantMessage, PACKAGE_ROOT, startSdkSession } from "../adapters/pi/e2e/sdk-session.ts";

/**
 * The newcomer's promise, executed: a copy of the package where one new spec file is added and the
 * catalogue gets one entry (no other file differs) has the tool on Pi (called by the model in a real SDK
 * session) and over MCP (listed and called through the package bin).
 */
const CATALOGUE = "domain/tools/service/tool-catalogue.ts";
const SPEC_FILE = "domain/tools/service/newcomer-echo-spec.ts";
const SPEC = `import { ok } from "../../shared/model/result.ts";
import type { HostToolSpec } from "../../shared/service/host-tool-spec.ts";
import { normalizeStatusArguments, StatusArgumentsSchema } from "../../tasks/model/query-arguments.ts";

export const newcomerEchoSpec: HostToolSpec<{ taskId?: string }, { echoed: string }> = {
  name: "newcomer_echo",
  label: "Newcomer Echo",
  description: "Echoes its taskId back (the catalogue's newcomer test).",
  promptSnippet: "Echo a task id",
  parameters: StatusArgumentsSchema,
  normalize: normalizeStatusArguments,
  run: async ({ taskId }) => ok({ text: \`echo:\${taskId ?? "none"}\`, details: { echoed: taskId ?? "none" } }),
};
`;

function copyWithNewcomer(): { root: string; changed: string[] } {
  const root = mkdtempSync(join(tmpdir(), "pi-bg-newcomer-"));
  // The working tree as git sees it: tracked and new files, not ignored ones (node_modules is linked below).
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: PACKAGE_ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file !== "" && existsSync(join(PACKAGE_ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    copyFileSync(join(PACKAGE_ROOT, file), join(root, file));
  }
  symlinkSync(join(PACKAGE_ROOT, "node_modules"), join(root, "node_modules"));
  const catalogue = readFileSync(join(root, CATALOGUE), "utf8");
  const entry = "  const specs: AnyHostToolSpec[] = [\n";
  if (!catalogue.includes(entry)) throw new Error(`${CATALOGUE} no longer lists its specs in one array`);
  writeFileSync(
    join(root, CATALOGUE),
    `import { newcomerEchoSpec } from "./newcomer-echo-spec.ts";\n${catalogue.replace(entry, `${entry}    newcomerEchoSpec,\n`)}`,
  );
  writeFileSync(join(root, SPEC_FILE), SPEC);
  const changed = [...files, SPEC_FILE].filter((file) => {
    try {
      return !readFileSync(join(root, file)).equals(readFileSync(join(PACKAGE_ROOT, file)));
    } catch {
      return true;
    }
  });
  return { root, changed };
}

describe("a new tool is one spec in one place", { timeout: 90_000 }, () => {
  let copy: { root: string; changed: string[] };
  beforeAll(() => {
    copy = copyWithNewcomer();
  });
  afterAll(() => rmSync(copy.root, { recursive: true, force: true }));

  it("only the new spec file and the catalogue differ from the package", () => {
    expect(copy.changed.sort()).toEqual([CATALOGUE, SPEC_FILE].sort());
  });

  it("Pi registers it: the model calls it in a real session and reads its reply", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "pi-bg-newcomer-pi-"));
    const s = await startSdkSession({
      cwd,
      agentDir: join(cwd, "agent"),
      extensionPaths: [copy.root],
      replies: [
        fauxAssistantMessage(fauxToolCall("newcomer_echo", { taskId: "abc" }), { stopReason: "toolUse" }),
        fauxAssistantMessage("done"),
      ],
    });
    try {
      await s.session.prompt("echo abc");
      const end = await s.waitFor((e) => e.type === "tool_execution_end" && e.toolName === "newcomer_echo");
      expect(end.type === "tool_execution_end" && end.isError).toBe(false);
      expect(JSON.stringify(end.type === "tool_execution_end" ? end.result : undefined)).toContain("echo:abc");
    } finally {
      await s.shutdown();
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("MCP lists it and answers a call through the package bin", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "pi-bg-newcomer-mcp-"));
    const env = Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(copy.root, "bin/pi-background-tasks.mjs"), "mcp"],
      cwd,
      env,
      stderr: "pipe",
    });
    const client = new Client({ name: "newcomer", version: "1.0.0" });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("newcomer_echo");
      const reply = (await client.callTool({ name: "newcomer_echo", arguments: { taskId: "abc" } })) as CallToolResult;
      expect(reply.isError).not.toBe(true);
      expect(reply.structuredContent).toEqual({ echoed: "abc" });
    } finally {
      await client.close();
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

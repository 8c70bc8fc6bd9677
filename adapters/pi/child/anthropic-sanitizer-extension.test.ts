import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lanePiVersion } from "../../fake/expected-client.ts";
import { writeIsolatedAgentDir } from "../../fake/isolated-agent-dir.ts";
import { startScriptedModelServer, type ScriptedModelServer } from "../../fake/scripted-model-server.ts";
import { runPiJson } from "../e2e/pi-cli.ts";
import { removePiDocumentationLines } from "./anthropic-system-prompt-lines.ts";

const here = dirname(fileURLToPath(import.meta.url));

// The block as Pi 0.73.1 renders it (dumped from before_agent_start with no --system-prompt).
const PI_DOCS_BLOCK = [
  "Pi documentation (read only when the user asks about pi itself, its SDK, extensions, themes, skills, or TUI):",
  "- Main documentation: /x/node_modules/@mariozechner/pi-coding-agent/README.md",
  "- Additional docs: /x/node_modules/@mariozechner/pi-coding-agent/docs",
  "- Examples: /x/node_modules/@mariozechner/pi-coding-agent/examples (extensions, custom tools, SDK)",
  "- When asked about: extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md), skills (docs/skills.md)",
  "- When working on pi topics, read the docs and examples, and follow .md cross-references before implementing",
  "- Always read pi .md files completely and follow links to related docs (e.g., tui.md for TUI API details)",
];

// The block as Pi 1.6.0 renders it: a `<docs>` section of the sectioned system prompt.
const PI_1_DOCS_SECTION = [
  "<docs>",
  "Pi documentation (read only when the user asks about the harness itself, its SDK, extensions, themes, skills, or TUI):",
  "- Main documentation: /x/node_modules/@earendil-works/pi-coding-agent/README.md",
  "- Additional docs: /x/node_modules/@earendil-works/pi-coding-agent/docs",
  "- Examples: /x/node_modules/@earendil-works/pi-coding-agent/examples (extensions, custom tools, SDK)",
  "- When reading pi docs or examples, resolve docs/... under Additional docs and examples/... under Examples, not the current working directory",
  "- When asked about: extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md)",
  "- Before implementing harness changes, read the relevant docs and examples in full, following related cross-references.",
  "</docs>",
];

describe("removePiDocumentationLines", () => {
  it("removes Pi 1.x's whole <docs> section and nothing around it", () => {
    const prompt = [
      "<rules>",
      "- Be concise in your responses",
      "</rules>",
      ...PI_1_DOCS_SECTION,
      "<cwd>",
      "/w",
      "</cwd>",
    ].join("\n");
    const result = removePiDocumentationLines(prompt);
    expect(result.removed).toEqual(PI_1_DOCS_SECTION);
    expect(result.prompt).toBe(
      ["<rules>", "- Be concise in your responses", "</rules>", "<cwd>", "/w", "</cwd>"].join("\n"),
    );
  });

  it("leaves a <docs> section of another text alone", () => {
    const other = ["<docs>", "- Examples: mine", "</docs>"].join("\n");
    expect(removePiDocumentationLines(other)).toEqual({ prompt: other, removed: [] });
  });

  it("removes exactly the documentation block, as complete lines", () => {
    const prompt = [
      "Guidelines:",
      "- Be concise in your responses",
      "",
      ...PI_DOCS_BLOCK,
      "Current date: 2026-01-01",
    ].join("\n");
    const result = removePiDocumentationLines(prompt);
    expect(result.removed).toEqual(PI_DOCS_BLOCK);
    expect(result.prompt).toBe(
      ["Guidelines:", "- Be concise in your responses", "", "Current date: 2026-01-01"].join("\n"),
    );
  });

  it("leaves bullets with the same prefixes outside the block, and prompts without the block, untouched", () => {
    const stage = ["You are the merger.", "- Examples: keep the candidates' examples", "- Additional docs: none"].join(
      "\n",
    );
    expect(removePiDocumentationLines(stage)).toEqual({ prompt: stage, removed: [] });
    const after = [PI_DOCS_BLOCK[0] ?? "", "unrelated line", "- Examples: stays"].join("\n");
    expect(removePiDocumentationLines(after).prompt).toBe("unrelated line\n- Examples: stays");
  });
});

describe("anthropic sanitizer extension in a real pi child", () => {
  let server: ScriptedModelServer;
  let work: string;
  beforeAll(async () => {
    server = await startScriptedModelServer();
    work = mkdtempSync(join(tmpdir(), "sanitizer-"));
  });
  afterAll(async () => {
    await server.close();
  });

  it("the provider receives Pi's default system prompt without its documentation block, and nothing else removed", async () => {
    const agent = await writeIsolatedAgentDir({
      dir: join(work, "agent"),
      baseUrl: server.baseUrl,
      extraSettings: { retry: { enabled: false } },
    });
    const dump = join(work, "original-system-prompt.txt");
    const dumper = join(work, "dump-system-prompt.ts");
    // Loaded first, so it sees the prompt before the sanitizer rewrites it.
    writeFileSync(
      dumper,
      `import { writeFileSync } from "node:fs";\nexport default function (pi: any) { pi.on("before_agent_start", (e: any) => { writeFileSync(${JSON.stringify(dump)}, e.systemPrompt); }); }\n`,
    );
    const run = await runPiJson({
      args: [
        "--no-session",
        "--no-extensions",
        "--no-skills",
        "--no-prompt-templates",
        "--no-themes",
        "--no-context-files",
        "--offline",
        "-e",
        dumper,
        "-e",
        join(here, "anthropic-sanitizer-extension.ts"),
        "-p",
        "hi [[text ok]]",
      ],
      env: agent.env,
      cwd: work,
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(0);
    const original = readFileSync(dump, "utf8");
    expect(original).toContain("Pi documentation (read only when");
    const expected = removePiDocumentationLines(original);
    // Pi 0.73: the header and six bullets; Pi 1.x: the same inside a <docs> section, with other bullets.
    expect(expected.removed).toHaveLength(lanePiVersion().startsWith("0.") ? 7 : 9);
    const sent = String(server.requests[0]?.body.messages?.[0]?.content);
    expect(sent).toBe(expected.prompt);
    expect(sent).not.toMatch(/pi-coding-agent\/(README\.md|docs|examples)/);
    expect(sent).toMatch(/Available tools:|<tools>/); // the tool list (0.73 and 1.x wording) stays
  });
});

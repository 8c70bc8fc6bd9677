import { existsSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READ_SCOPE_ENV, readScopeFor, serialiseReadScope } from "../../../domain/confinement/model/read-scope.ts";
import { installReadConfinement } from "./read-confinement.ts";
import { realpathOfPossiblyMissing } from "./read-path-spellings.ts";
import {
  fakePi,
  forbidden,
  landing,
  lanePathUtils,
  makeTree,
  type PiPathUtils,
  type Tree,
} from "./read-confinement.test-support.ts";
import { benignSpellings, maliciousSpellings } from "./read-confinement-spellings.test-support.ts";

const READ_TOOLS = ["read", "grep", "find", "ls"] as const;
type Verdict = { block: true; reason: string } | undefined;

let tree: Tree;
let utils: PiPathUtils;
let savedHome: string | undefined;

beforeAll(async () => {
  tree = makeTree();
  utils = await lanePathUtils();
  // Pi's own resolver expands `~` with os.homedir(), which reads HOME: both sides see the fake home
  savedHome = process.env.HOME;
  process.env.HOME = tree.home;
});

afterAll(() => {
  if (savedHome === undefined) delete process.env.HOME;
  else process.env.HOME = savedHome;
  tree.cleanup();
});

function confined(env: Record<string, string | undefined>) {
  const { pi, handlers } = fakePi();
  installReadConfinement(pi, env as NodeJS.ProcessEnv, tree.home);
  const toolCall = handlers.get("tool_call");
  const toolResult = handlers.get("tool_result");
  if (toolCall === undefined || toolResult === undefined) throw new Error("both hooks must be registered");
  let n = 0;
  return {
    call: (toolName: string, input: unknown, cwd = tree.root) =>
      toolCall({ toolName, toolCallId: `c${++n}`, input }, { cwd }) as Verdict,
    result: (toolName: string, input: unknown, text: string, cwd = tree.root) =>
      toolResult(
        { toolName, toolCallId: `c${++n}`, input, content: [{ type: "text", text }], isError: false, details: {} },
        { cwd },
      ) as { content: Array<{ type: string; text: string }> } | undefined,
  };
}

function scoped() {
  const scope = readScopeFor({ cwd: tree.root, gitTop: tree.root, home: tree.home, agentDir: tree.agentDir });
  if (!scope.ok) throw new Error(scope.error.message);
  return confined({ [READ_SCOPE_ENV]: serialiseReadScope(scope.value) });
}

const show = (raw: string) => JSON.stringify(raw);

describe("read confinement against generated attack spellings", () => {
  it("generates at least 200 malicious spellings, counted per class", () => {
    const classes = maliciousSpellings(tree);
    const counts = Object.fromEntries(Object.entries(classes).map(([name, list]) => [name, list.length]));
    expect(counts).toEqual({
      absolute: 48,
      tilde: 12,
      "at-prefix": 14,
      "dot-dot": 54,
      "slashes-dots": 12,
      kernel: 18,
      "file-url": 18,
      nul: 8,
      "look-alike": 20,
      symlink: 22,
      "macos-variant": 13,
      "denied-dir": 12,
    });
    const all = Object.values(classes).flat();
    expect(all.length).toBeGreaterThanOrEqual(200);
    expect(new Set(all).size).toBe(all.length);
  });

  for (const tool of READ_TOOLS) {
    it(`${tool}: every spelling that Pi's own resolver lands outside the root or in a denied dir is blocked`, () => {
      const hook = scoped();
      const spellings = Object.entries(maliciousSpellings(tree)).flatMap(([cls, list]) =>
        list.map((raw) => ({ cls, raw })),
      );
      const holes: string[] = [];
      let dangerous = 0;
      for (const { cls, raw } of spellings) {
        const real = landing(utils, tool, raw, tree.root);
        if (real === undefined || !forbidden(tree, real)) continue;
        dangerous += 1;
        const verdict = hook.call(tool, { path: raw });
        if (verdict?.block !== true) holes.push(`${cls} ${show(raw)} -> ${real}`);
        else expect(verdict.reason).toMatch(/^read_outside_scope: /);
      }
      expect(holes).toEqual([]);
      // not vacuous: most spellings really do land outside under this Pi
      expect(dangerous).toBeGreaterThanOrEqual(195);
    });

    it(`${tool}: every spelling of the attack classes that names an outside file is blocked outright`, () => {
      const hook = scoped();
      const classes = maliciousSpellings(tree);
      const outright = (["absolute", "tilde", "dot-dot", "kernel", "nul", "symlink", "denied-dir"] as const).flatMap(
        (cls) => classes[cls].map((raw) => ({ cls, raw })),
      );
      const passed = outright.filter(({ raw }) => hook.call(tool, { path: raw })?.block !== true);
      expect(passed.map(({ cls, raw }) => `${cls} ${show(raw)}`)).toEqual([]);
    });

    it(`${tool}: the benign paths inside the root are not blocked`, () => {
      const hook = scoped();
      const benign = benignSpellings(tree);
      expect(benign.length).toBeGreaterThanOrEqual(30);
      const oracleOutside = benign.filter((raw) => {
        const real = landing(utils, tool, raw, tree.root);
        return real !== undefined && forbidden(tree, real);
      });
      expect(oracleOutside).toEqual([]);
      const blocked = benign.filter((raw) => hook.call(tool, { path: raw }) !== undefined);
      expect(blocked.map(show)).toEqual([]);
    });
  }

  it("the macOS fallbacks really reach outside: Pi's read opens the curly, narrow-space and NFD links", () => {
    for (const raw of ["a'b.txt", "Screen 1.02 PM.png", "café.txt"]) {
      const real = landing(utils, "read", raw, tree.root);
      expect(real?.startsWith(`${tree.outside}/`), raw).toBe(true);
    }
  });

  it("a link to a deleted outside file still open in this process is placed where /proc says it points", () => {
    const verdict = scoped().call("read", { path: "link-deleted" });
    expect(verdict?.reason).toMatch(/^read_outside_scope: "link-deleted" resolves .*outside the project root/);
    expect(realpathOfPossiblyMissing(`${tree.root}/link-deleted`)).toBe(`${tree.outside}/deleted.txt (deleted)`);
  });

  it("links are followed as realpath follows them, a missing rest kept as written, a loop left alone", () => {
    const entries = readdirSync(tree.base, { recursive: true, encoding: "utf8" }).map((e) => join(tree.base, e));
    const existing = entries.filter((p) => existsSync(p) && !p.endsWith("link-deleted"));
    expect(existing.length).toBeGreaterThan(40);
    for (const p of existing) expect(realpathOfPossiblyMissing(p), p).toBe(realpathSync(p));
    const missing = join(tree.root, "link-dir-out", "no", "such", "file");
    expect(realpathOfPossiblyMissing(missing)).toBe(join(tree.outside, "no", "such", "file"));
    expect(realpathOfPossiblyMissing(join(tree.root, "loop-a", "x"))).toMatch(/\/loop-[ab]\/x$/);
  });

  it("a path argument that is missing or empty is the cwd for the tree tools and allowed; a non-read tool is untouched", () => {
    const hook = scoped();
    for (const tool of ["grep", "find", "ls"]) {
      expect(hook.call(tool, {})).toBeUndefined();
      expect(hook.call(tool, { path: "" })).toBeUndefined();
    }
    expect(hook.call("grep", {}, `${tree.root}/.pi`)?.block).toBe(true);
    expect(hook.call("fusion_web_fetch", { path: "/etc/passwd", url: "file:///etc/passwd" })).toBeUndefined();
    expect(hook.call("bash", { command: "cat ~/.ssh/id_rsa" })).toBeUndefined();
  });
});

describe("grep and find results under a denied directory", () => {
  const text = [".pi/x:1: secret", "src/a.ts:2: ok", ".pi/runs/r1/out.json-3- context", ".pi", "README.md"].join("\n");

  for (const tool of ["grep", "find"]) {
    it(`${tool} run at the root: the .pi/ lines are withheld and a note says how many`, () => {
      const hook = scoped();
      for (const input of [{}, { path: "." }, { path: tree.root }, { path: "src/.." }, { path: "src/up" }]) {
        const out = hook.result(tool, input, text);
        expect(out, JSON.stringify(input)).toBeDefined();
        const texts = out?.content.map((b) => b.text) ?? [];
        expect(texts[0]).toBe("src/a.ts:2: ok\nREADME.md");
        expect(texts.at(-1)).toMatch(/^\[3 result line\(s\) under \.pi withheld/);
        expect(texts.join("\n")).not.toContain("secret");
      }
    });

    it(`${tool} run at a subdirectory: nothing changes`, () => {
      const hook = scoped();
      expect(hook.result(tool, { path: "src" }, text)).toBeUndefined();
      expect(hook.result(tool, {}, text, `${tree.root}/sub`)).toBeUndefined();
    });
  }

  it("ls and read results, error results and a result without denied lines are left alone", () => {
    const hook = scoped();
    expect(hook.result("ls", {}, text)).toBeUndefined();
    expect(hook.result("read", { path: "src/a.ts" }, text)).toBeUndefined();
    expect(hook.result("grep", {}, "src/a.ts:2: ok\n.pi-notes.txt:1: fine\n.pi2/x.txt:1: fine")).toBeUndefined();
  });
});

describe("without a valid scope every read is refused", () => {
  const invalid: Array<[string, string | undefined]> = [
    ["missing", undefined],
    ["empty", ""],
    ["not JSON", "{"],
    ["another schema", JSON.stringify({ schema: "x", root: "/tmp/p", denied: [] })],
    ["a relative root", JSON.stringify({ schema: "pi-background-tasks.read-scope.v1", root: "p", denied: [] })],
    ["the file system root", JSON.stringify({ schema: "pi-background-tasks.read-scope.v1", root: "/", denied: [] })],
    ["denied not a list", JSON.stringify({ schema: "pi-background-tasks.read-scope.v1", root: "/tmp/p", denied: "x" })],
  ];

  for (const [what, value] of invalid) {
    it(`${what}: read, grep, find and ls are blocked with read_scope_invalid; other tools untouched`, () => {
      const hook = confined({ [READ_SCOPE_ENV]: value });
      for (const tool of READ_TOOLS) {
        for (const path of ["src/a.ts", ".", undefined]) {
          const verdict = hook.call(tool, path === undefined ? {} : { path });
          expect(verdict?.block).toBe(true);
          expect(verdict?.reason).toMatch(/^read_scope_invalid: /);
        }
      }
      expect(hook.call("fusion_web_fetch", { url: "https://example.com" })).toBeUndefined();
      expect(hook.call("edit", { path: "src/a.ts" })).toBeUndefined();
      expect(hook.result("grep", {}, ".pi/x:1: secret")).toBeUndefined();
    });
  }
});

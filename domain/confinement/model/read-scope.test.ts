import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseReadScope, type ReadScope, readScopeFor, refusalOf, serialiseReadScope, within } from "./read-scope.ts";

const HOME = "/home/u";
const AGENT = "/home/u/.pi/agent";
const scopeOf = (cwd: string, gitTop?: string) => readScopeFor({ cwd, gitTop, home: HOME, agentDir: AGENT });
const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? "ok" : r.error?.code);

describe("readScopeFor", () => {
  it("the root is the Git top level over the cwd, without its .pi/, the agent dir and the kernel's trees", () => {
    expect(scopeOf("/home/u/proj/src/deep", "/home/u/proj")).toEqual({
      ok: true,
      value: { root: "/home/u/proj", denied: ["/home/u/proj/.pi", AGENT, "/proc", "/sys", "/dev"] },
    });
  });

  it("denies the children's own agent dir too when the runner has one", () => {
    const r = readScopeFor({
      cwd: "/srv/work",
      gitTop: undefined,
      home: HOME,
      agentDir: AGENT,
      childAgentDir: "/srv/work/tmp/c",
    });
    expect(r.ok && r.value.denied).toEqual(["/srv/work/.pi", AGENT, "/srv/work/tmp/c", "/proc", "/sys", "/dev"]);
    expect(r.ok && refusalOf(r.value, "/srv/work/tmp/c/auth.json")).toBe(
      "it is inside /srv/work/tmp/c, which no child may read",
    );
  });

  it("outside a repository the root is the cwd", () => {
    const r = scopeOf("/srv/work");
    expect(r.ok && r.value.root).toBe("/srv/work");
  });

  it("refuses /, the home directory and every ancestor of it as read_root_too_broad", () => {
    for (const [cwd, gitTop] of [
      ["/", undefined],
      [HOME, undefined],
      ["/home", undefined],
      ["/home/u/proj", "/home/u"],
      ["/home/u/proj", "/home"],
      ["/home/u/proj", "/"],
      ["/srv/x", "/"],
    ] as const) {
      const r = scopeOf(cwd, gitTop);
      expect(code(r), `${cwd} in ${gitTop}`).toBe("read_root_too_broad");
      if (!r.ok) expect(r.error.message).toContain(gitTop ?? cwd);
    }
  });

  it("says which: the file system root, or the home directory and above", () => {
    const slash = scopeOf("/");
    const home = scopeOf(HOME);
    expect(!slash.ok && slash.error.message).toContain("the file system root");
    expect(!home.ok && home.error.message).toContain("the home directory or above it");
  });

  it("a directory whose name only starts like the home is not its ancestor", () => {
    expect(code(scopeOf("/home/u2"))).toBe("ok");
    expect(code(scopeOf("/home/u-proj"))).toBe("ok");
    expect(code(scopeOf("/home/u/proj"))).toBe("ok");
  });
});

describe("refusalOf", () => {
  const scope: ReadScope = { root: "/w/proj", denied: ["/w/proj/.pi", AGENT, "/proc", "/sys", "/dev"] };

  it("allows the root and what is below it", () => {
    for (const p of ["/w/proj", "/w/proj/src/a.ts", "/w/proj/.pi-notes", "/w/proj/.pi2/x", "/w/proj/x/.pi/y"])
      expect(refusalOf(scope, p), p).toBeUndefined();
  });

  it("refuses what is outside the root, a sibling whose name starts like it included", () => {
    for (const p of ["/w", "/", "/w/proj-evil/x", "/w/projx", "/etc/passwd", "/home/u/.ssh/id_rsa"])
      expect(refusalOf(scope, p), p).toMatch(/^it is outside the project root \/w\/proj$/);
  });

  it("refuses the denied directories and below, naming the project's .pi/ apart", () => {
    expect(refusalOf(scope, "/w/proj/.pi")).toMatch(/project's \.pi\/ directory/);
    expect(refusalOf(scope, "/w/proj/.pi/runs/r1/out.json")).toMatch(/project's \.pi\/ directory/);
    const inside = { root: "/", denied: scope.denied };
    expect(refusalOf(inside, "/proc/self/environ")).toBe("it is inside /proc, which no child may read");
    expect(refusalOf(inside, `${AGENT}/auth.json`)).toBe(`it is inside ${AGENT}, which no child may read`);
    expect(refusalOf({ root: "/home/u", denied: [AGENT] }, AGENT)).toMatch(/inside \/home\/u\/\.pi\/agent/);
  });

  it("within: a directory and what is below it, never a sibling with a longer name", () => {
    expect([within("/a", "/a"), within("/a/b", "/a"), within("/a/b", "/a/"), within("/ab", "/a")]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(within("/anything", "/")).toBe(true);
  });
});

describe("the scope as PI_BG_READ_SCOPE", () => {
  const absolute = fc
    .array(fc.stringMatching(/^[a-zA-Z0-9._ -]{1,8}$/), { minLength: 1, maxLength: 4 })
    .map((parts) => `/${parts.join("/")}`);

  it("parses what it serialises", () => {
    fc.assert(
      fc.property(absolute, fc.array(absolute, { maxLength: 6 }), (root, denied) => {
        expect(parseReadScope(serialiseReadScope({ root, denied }))).toEqual({ ok: true, value: { root, denied } });
      }),
    );
  });

  it("refuses a missing, malformed or foreign scope as read_scope_invalid", () => {
    const doc = (v: object) =>
      JSON.stringify({ schema: "pi-background-tasks.read-scope.v1", root: "/w", denied: [], ...v });
    for (const text of [
      undefined,
      "",
      "null",
      "[]",
      "{",
      JSON.stringify({ root: "/w", denied: [] }),
      doc({ schema: "pi-background-tasks.read-scope.v2" }),
      doc({ root: "w" }),
      doc({ root: "/" }),
      doc({ root: "/w\0/x" }),
      doc({ root: 7 }),
      doc({ denied: "/proc" }),
      doc({ denied: ["proc"] }),
      doc({ denied: ["/proc", null] }),
      doc({ denied: ["/p\0"] }),
    ]) {
      const r = parseReadScope(text);
      expect(code(r), String(text)).toBe("read_scope_invalid");
      if (!r.ok) expect(r.error.message).toMatch(/^PI_BG_READ_SCOPE .*; every read is refused$/);
    }
    expect(code(parseReadScope(doc({})))).toBe("ok");
  });
});

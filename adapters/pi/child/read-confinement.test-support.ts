import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

/**
 * A project tree to attack: the root (a Git work tree) with ordinary files, its `.pi/` holding another
 * candidate's answer, links out of it (to a file, a directory, `.pi/`, the home, the agent dir, /proc, and a
 * deleted file still open in this process), the macOS look-alike names Pi's `read` falls back to (curly
 * apostrophe, narrow no-break space before PM, NFD), each linked to a canary outside; next to it a directory of
 * canaries, a sibling whose name starts with the root's, and a fake home with `.ssh/id_rsa` and the agent dir.
 */
export interface Tree {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  readonly home: string;
  readonly agentDir: string;
  readonly cleanup: () => void;
}

export function makeTree(): Tree {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "confine-")));
  const root = join(base, "project");
  const outside = join(base, "outside");
  const home = join(base, "home");
  const agentDir = join(home, ".pi", "agent");
  const file = (path: string, text = `canary ${basename(path)}`) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  for (const f of ["secret.txt", "dir/inner.txt", "curly.txt", "ampm.txt", "nfd.txt", "deleted.txt"])
    file(join(outside, f));
  file(join(home, ".ssh", "id_rsa"), "PRIVATE KEY");
  file(join(agentDir, "auth.json"), '{"token":"sk-canary"}');
  file(join(base, "project-evil", "x.txt"));
  file(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
  file(join(root, ".pi", "answer.md"), "other candidate's answer");
  file(join(root, ".pi", "runs", "r1", "out.json"));
  for (const f of ["src/a.ts", "src/b.ts", "sub/deep/c.txt", "README.md", ".pi-notes.txt", ".pi2/x.txt"])
    file(join(root, f));
  for (const f of ["résumé.txt", "naïve’s notes.txt", "Shot 9.41\u202FAM.png", "it's.txt"]) file(join(root, f));
  const link = (name: string, target: string) => symlinkSync(target, join(root, name));
  link("link-file-out", join(outside, "secret.txt"));
  link("link-dir-out", outside);
  link("link-pi", ".pi");
  link("src/up", "..");
  link("link-home", home);
  link("link-agent", agentDir);
  link("link-proc", "/proc/self/environ");
  link("a’b.txt", join(outside, "curly.txt"));
  link("Screen 1.02\u202FPM.png", join(outside, "ampm.txt"));
  link("cafe\u0301.txt", join(outside, "nfd.txt"));
  // a deleted file this process still holds open: realpath cannot place /proc/self/fd/N, the kernel still opens it
  const fd = openSync(join(outside, "deleted.txt"), "r");
  unlinkSync(join(outside, "deleted.txt"));
  link("link-deleted", `/proc/self/fd/${fd}`);
  const cleanup = () => {
    closeSync(fd);
    rmSync(base, { recursive: true, force: true });
  };
  return { base, root, outside, home, agentDir, cleanup };
}

export type SpellingClass =
  | "absolute"
  | "tilde"
  | "at-prefix"
  | "dot-dot"
  | "slashes-dots"
  | "kernel"
  | "file-url"
  | "nul"
  | "look-alike"
  | "symlink"
  | "macos-variant"
  | "denied-dir";

/** The attack spellings of every path argument, by class. */
export function maliciousSpellings(t: Tree): Record<SpellingClass, string[]> {
  const { root, outside, home, agentDir, base } = t;
  const targets = [
    join(outside, "secret.txt"),
    join(outside, "dir", "inner.txt"),
    join(home, ".ssh", "id_rsa"),
    join(agentDir, "auth.json"),
    join(root, ".pi", "answer.md"),
    join(base, "project-evil", "x.txt"),
    "/etc/passwd",
    "/etc/hostname",
  ];
  const rel = targets.map((p) => relative(root, p));
  const pid = process.pid;
  return {
    absolute: targets.flatMap((p) => [
      p,
      p.replaceAll("/", "//"),
      p.replace(/\/([^/]+)$/, "/./$1"),
      `${p}/`,
      `${p}/.`,
      `${dirname(p)}/../${basename(dirname(p))}/${basename(p)}`,
    ]),
    tilde: [
      "~",
      "~/",
      "~/.ssh/id_rsa",
      "~/.ssh",
      "~//.ssh//id_rsa",
      "~/./.ssh/../.ssh/id_rsa",
      "~/.pi",
      "~/.pi/agent",
      "~/.pi/agent/auth.json",
      "~/..",
      "~/../outside/secret.txt",
      "~/../project/.pi/answer.md",
    ],
    "at-prefix": [
      ...targets.map((p) => `@${p}`),
      "@~/.ssh/id_rsa",
      "@~",
      "@../outside/secret.txt",
      "@.pi/answer.md",
      "@link-file-out",
      "@/proc/self/environ",
    ],
    "dot-dot": [
      ...rel.flatMap((r) => [r, `./${r}`, `sub/../${r}`, `./././${r}`, `sub/deep/../../${r}`, `src//..//${r}`]),
      "../".repeat(12) + "etc/passwd",
      "..",
      "../",
      "../..",
      "sub/../../",
      "./././../",
    ],
    "slashes-dots": [
      `${root}//..//outside/secret.txt`,
      `${root}/./../outside/./secret.txt`,
      ".//.pi//answer.md",
      ".pi/./answer.md",
      ".pi/runs/../answer.md",
      "src/../.pi/answer.md",
      `${root}/.pi/`,
      `${root}/.pi/.`,
      "/etc///passwd",
      "/./etc/./passwd",
      "/etc/passwd/./",
      "../outside/secret.txt/",
    ],
    kernel: [
      "/proc/self/environ",
      `/proc/${pid}/environ`,
      "/proc/thread-self/environ",
      "/proc/self/cwd/../..",
      "/proc/self/cwd",
      "/proc/self/root/etc/passwd",
      "/proc/self/cwd/../../etc/passwd",
      "/proc/self/fd/0",
      "/proc/self/mem",
      "/proc/1/environ",
      "/proc",
      "/sys",
      "/sys/kernel",
      "/dev/stdin",
      "/dev/fd/0",
      "/dev/shm",
      "/proc/self/root",
      "/",
    ],
    "file-url": [
      ...targets.map((p) => pathToFileURL(p).href),
      "file://localhost/etc/passwd",
      "file:///etc/%70asswd",
      "file:///etc%2Fpasswd",
      `file://${root}/%2e%2e/outside/secret.txt`,
      `file://${root}/%2E%2E/%2E%2E/%2E%2E/etc/passwd`,
      `file://${root}/.%70i/answer.md`,
      `file://${root}/link-file-out`,
      "file:///etc/passwd?x=1#y",
      "@file:///etc/passwd",
      `file://${home}/.ssh/./id_rsa`,
    ],
    nul: [
      "/etc/passwd\0",
      "src/a.ts\0../../etc/passwd",
      "\0/etc/passwd",
      ".pi/answer.md\0",
      "~/.ssh/id_rsa\0.txt",
      "src/a.ts\0",
      "\0",
      "file:///etc/passwd%00",
    ],
    "look-alike": [
      "．．／outside／secret.txt",
      "．．/．．/etc/passwd",
      "..\u2215outside\u2215secret.txt",
      "/proc\u2215self\u2215environ",
      "\u2024\u2024/outside/secret.txt",
      "\u2025/outside/secret.txt",
      "\u00A0/etc/passwd",
      "/etc/passwd\u00A0",
      "/etc\u3000/passwd",
      "~\u00A0/.ssh/id_rsa",
      "\u202F~/.ssh/id_rsa",
      "@\u2000~/.ssh/id_rsa",
      "..\u2000/..\u2000/etc/passwd",
      ".pi\u00A0/answer.md",
      "\u00A0.pi/answer.md",
      "～/.ssh/id_rsa",
      "/etc\u202F/passwd",
      `${root}/\u200A../outside/secret.txt`,
      "..\u00A0/outside/secret.txt",
      "\uFF0E\uFF0E\u2215\uFF0E\uFF0E\u2215etc\u2215passwd",
    ],
    symlink: [
      "link-file-out",
      "./link-file-out",
      "src/../link-file-out",
      "link-dir-out",
      "link-dir-out/",
      "link-dir-out/secret.txt",
      "link-dir-out/dir/inner.txt",
      "link-dir-out/dir",
      "link-pi",
      "link-pi/",
      "link-pi/answer.md",
      "src/up/.pi/answer.md",
      "src/up/link-file-out",
      "link-home/.ssh/id_rsa",
      "link-agent/auth.json",
      "link-proc",
      "link-deleted",
      `${root}/link-dir-out/dir/inner.txt`,
      "link-dir-out/missing.txt",
    ],
    "macos-variant": [
      "a'b.txt",
      "./a'b.txt",
      "sub/../a'b.txt",
      "@a'b.txt",
      "a’b.txt",
      "Screen 1.02 PM.png",
      "Screen 1.02\u00A0PM.png",
      "Screen 1.02\u202FPM.png",
      "./Screen 1.02 PM.png",
      "café.txt",
      "@café.txt",
      "sub/../café.txt",
      "cafe\u0301.txt",
    ],
    "denied-dir": [
      ".pi",
      ".pi/",
      "./.pi",
      ".pi//answer.md",
      ".pi/runs/r1/out.json",
      ".pi/runs",
      ".pi/missing.md",
      `${root}/.pi`,
      agentDir,
      `${agentDir}/missing.json`,
      `${agentDir}/`,
      "~/.pi/agent/",
    ],
  };
}

/** Paths inside the root that a stage must be able to read. */
export function benignSpellings(t: Tree): string[] {
  const { root } = t;
  return [
    "src/a.ts",
    "./src/a.ts",
    "src/../src/a.ts",
    "sub/deep/../../src/a.ts",
    "sub/deep/c.txt",
    "README.md",
    ".",
    "./",
    "src",
    "src/",
    "sub/deep",
    root,
    `${root}/`,
    `${root}/src`,
    `${root}//src//a.ts`,
    "@src/a.ts",
    "@README.md",
    "résumé.txt",
    "re\u0301sume\u0301.txt",
    "naïve’s notes.txt",
    "naïve's notes.txt",
    "Shot 9.41 AM.png",
    "Shot 9.41\u202FAM.png",
    "it's.txt",
    pathToFileURL(join(root, "src", "a.ts")).href,
    ".git/HEAD",
    "src/up",
    "src/up/src/a.ts",
    ".pi-notes.txt",
    ".pi2/x.txt",
    "sub/deep/../../.pi-notes.txt",
    "~user/x",
    "file:src/a.ts",
    "src/missing.ts",
  ];
}

/** A `pi` that only records the handlers registered with `pi.on`. */
export function fakePi(): { pi: ExtensionAPI; handlers: Map<string, (event: unknown, ctx: unknown) => unknown> } {
  const handlers = new Map<string, (event: unknown, ctx: unknown) => unknown>();
  const pi = { on: (name: string, handler: (event: unknown, ctx: unknown) => unknown) => handlers.set(name, handler) };
  return { pi: pi as unknown as ExtensionAPI, handlers };
}

export interface PiPathUtils {
  resolveToCwd(path: string, cwd: string): string;
  resolveReadPath(path: string, cwd: string): string;
}

/** The path functions of the Pi this lane runs: the lane's (PI_BG_TEST_PI_DIR) or else the devDependency. */
export async function lanePathUtils(): Promise<PiPathUtils> {
  const dev = join(import.meta.dirname, "..", "..", "..", "node_modules", "@mariozechner", "pi-coding-agent");
  const piDir = process.env.PI_BG_TEST_PI_DIR || dev;
  return (await import(pathToFileURL(join(piDir, "dist", "core", "tools", "path-utils.js")).href)) as PiPathUtils;
}

/**
 * The oracle: where the file Pi opens for `raw` really is, found with Pi's own resolver (read tries the
 * macOS variants, the tree tools do not) and the kernel's view of links; `undefined` when Pi opens nothing
 * (its resolver throws, or the path holds a NUL), `"unresolvable"` for a path that is there but cannot be placed.
 */
export function landing(utils: PiPathUtils, tool: string, raw: string, cwd: string): string | undefined {
  let opened: string;
  try {
    opened = tool === "read" ? utils.resolveReadPath(raw, cwd) : utils.resolveToCwd(raw || ".", cwd);
  } catch {
    return undefined;
  }
  if (opened.includes("\0")) return undefined;
  const rest: string[] = [];
  for (let at = opened; ; at = dirname(at)) {
    if (existsSync(at) || at === "/") {
      try {
        return join(realpathSync(at), ...rest.reverse());
      } catch {
        return "unresolvable";
      }
    }
    rest.push(basename(at));
  }
}

/** Whether a child may not open `real`: outside the root, in its `.pi/`, the agent dir or the kernel's trees. */
export function forbidden(t: Tree, real: string): boolean {
  const under = (dir: string) => real === dir || real.startsWith(`${dir}/`);
  return !under(t.root) || [join(t.root, ".pi"), t.agentDir, "/proc", "/sys", "/dev"].some(under);
}

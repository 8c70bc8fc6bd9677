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
import { basename, dirname, join } from "node:path";
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
  link("src/escape", "../../outside/secret.txt");
  link("chain-1", "chain-2");
  link("chain-2", "src/up/link-dir-out");
  link("loop-a", "loop-b");
  link("loop-b", "loop-a");
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

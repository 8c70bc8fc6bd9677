import { homedir } from "node:os";
import { relative } from "node:path";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import {
  parseReadScope,
  READ_SCOPE_ENV,
  refusalOf,
  within,
  type ReadScope,
} from "../../../domain/confinement/model/read-scope.ts";
import { readPathSpellings } from "./read-path-spellings.ts";

const READ_TOOLS = new Set(["read", "grep", "find", "ls"]);
/** These two walk a directory tree; what they find under a denied directory is taken out of their result. */
const TREE_TOOLS = new Set(["grep", "find"]);

/**
 * Confines the read tools of a child whose model may be hijacked to the scope its parent set in
 * `PI_BG_READ_SCOPE`: a call whose path, under any spelling Pi may resolve it to, is outside the project root
 * or in a denied directory is blocked with `read_outside_scope` before it runs (symlinks resolved); `grep`
 * and `find` do not follow links while walking, and the lines they report from a denied directory below
 * their search path are withheld, with a note saying how many. Without a valid scope every read is refused.
 * Installed first by the child's own extension, so the audit extension (last) sees the blocked calls too.
 */
export function installReadConfinement(pi: ExtensionAPI, env = process.env, home = homedir()): void {
  const scope = parseReadScope(env[READ_SCOPE_ENV]);
  pi.on("tool_call", (event, ctx) => {
    if (!READ_TOOLS.has(event.toolName)) return undefined;
    if (!scope.ok) return { block: true, reason: `${scope.error.code}: ${scope.error.message}` };
    const reason = refusal(scope.value, pathArgument(event.toolName, event.input), ctx.cwd, home);
    return reason === undefined ? undefined : { block: true, reason: `read_outside_scope: ${reason}` };
  });
  pi.on("tool_result", (event, ctx) => {
    if (!TREE_TOOLS.has(event.toolName) || !scope.ok || event.isError) return undefined;
    const searched = readPathSpellings(pathArgument(event.toolName, event.input), ctx.cwd, home)[0] ?? ctx.cwd;
    const below = scope.value.denied.filter((dir) => dir !== searched && within(dir, searched));
    if (below.length === 0) return undefined;
    const prefixes = below.map((dir) => relative(searched, dir));
    let withheld = 0;
    const content = event.content.map((block) => {
      if (block.type !== "text") return block;
      const kept = block.text.split("\n").filter((line) => {
        const denied = prefixes.some((p) => line === p || line === `${p}/` || line.startsWith(`${p}/`));
        if (denied) withheld += 1;
        return !denied;
      });
      return { ...block, text: kept.join("\n") };
    });
    if (withheld === 0) return undefined;
    const note = `[${withheld} result line(s) under ${prefixes.join(", ")} withheld: outside what this stage may read]`;
    return { content: [...content, { type: "text" as const, text: note }] };
  });
}

function pathArgument(tool: string, input: unknown): string {
  const path = (input as { path?: unknown } | undefined)?.path;
  if (typeof path === "string" && path !== "") return path;
  return tool === "read" ? "" : ".";
}

function refusal(scope: ReadScope, raw: string, cwd: string, home: string): string | undefined {
  if (raw.includes("\0")) return "the path contains a NUL character";
  for (const real of readPathSpellings(raw, cwd, home)) {
    const why = refusalOf(scope, real);
    if (why !== undefined) return `${JSON.stringify(raw)} resolves to a file this stage may not read: ${why}`;
  }
  return undefined;
}

import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChildAgentDir } from "./fusion-child-agent-dir.ts";

const POLICY = { maxRetries: 2, baseDelayMs: 7 };

function world(): { user: string; parent: string } {
  const root = mkdtempSync(join(tmpdir(), "child-agent-dir-"));
  const user = join(root, "agent");
  mkdirSync(user);
  writeFileSync(join(user, "settings.json"), JSON.stringify({ theme: "dark", retry: { enabled: false } }));
  writeFileSync(join(user, "auth.json"), "{}");
  writeFileSync(join(user, "models.json"), "{}");
  mkdirSync(join(user, "extensions"));
  return { user, parent: root };
}

function synced(dir: ChildAgentDir): string {
  const path = dir.sync();
  if (!path.ok) throw new Error(path.error);
  return path.value;
}

describe("ChildAgentDir", () => {
  it("holds the user's settings with the retry policy, and links every other entry of the user's agent dir", () => {
    const { user, parent } = world();
    const path = synced(new ChildAgentDir(user, POLICY, parent));
    expect(statSync(path).mode & 0o777).toBe(0o700);
    const settings = JSON.parse(readFileSync(join(path, "settings.json"), "utf8"));
    expect(settings).toEqual({ theme: "dark", retry: { enabled: true, ...POLICY, provider: { maxRetries: 0 } } });
    expect(lstatSync(join(path, "settings.json")).isSymbolicLink()).toBe(false);
    for (const name of ["auth.json", "models.json", "extensions"]) {
      expect(readlinkSync(join(path, name))).toBe(join(user, name));
    }
    // A write through the link (an OAuth refresh) lands in the user's own auth.json.
    writeFileSync(join(path, "auth.json"), '{"refreshed":true}');
    expect(readFileSync(join(user, "auth.json"), "utf8")).toBe('{"refreshed":true}');
  });

  it("follows the user's agent dir at each sync: new entries linked, vanished ones unlinked, settings rewritten", () => {
    const { user, parent } = world();
    const dir = new ChildAgentDir(user, POLICY, parent);
    const path = synced(dir);
    rmSync(join(user, "auth.json"));
    writeFileSync(join(user, "mcp.json"), "{}");
    writeFileSync(join(user, "settings.json"), JSON.stringify({ theme: "light" }));
    expect(synced(dir)).toBe(path);
    expect(lstatSync(join(path, "auth.json"), { throwIfNoEntry: false })).toBeUndefined();
    expect(readlinkSync(join(path, "mcp.json"))).toBe(join(user, "mcp.json"));
    expect(JSON.parse(readFileSync(join(path, "settings.json"), "utf8")).theme).toBe("light");
  });

  it("works for a user without an agent dir, and remove() deletes only its own dir", () => {
    const { user, parent } = world();
    const missing = new ChildAgentDir(join(parent, "no-agent"), POLICY, parent);
    const path = synced(missing);
    expect(JSON.parse(readFileSync(join(path, "settings.json"), "utf8")).retry.maxRetries).toBe(2);
    const linked = new ChildAgentDir(user, POLICY, parent);
    const linkedPath = synced(linked);
    linked.remove();
    missing.remove();
    expect([existsSync(path), existsSync(linkedPath)]).toEqual([false, false]);
    expect(readFileSync(join(user, "auth.json"), "utf8")).toBe("{}");
  });
});

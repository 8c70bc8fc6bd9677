import { createHash } from "node:crypto";
import { describeWorktreeInspectorContract } from "../../contract-tests/worktree-inspector.contract.ts";
import type { WorktreeState } from "../../ports/worktree-inspector.ts";
import { FakeWorktreeInspector } from "./fake-worktree-inspector.ts";

const objectId = (text: string) => createHash("sha1").update(text).digest("hex");

describeWorktreeInspectorContract("FakeWorktreeInspector", () => {
  const fake = new FakeWorktreeInspector({ code: "not_a_git_worktree", message: "not inside a Git worktree" });
  const states = new Map<string, WorktreeState>();
  let made = 0;
  const version = (root: string, dir: string, porcelain: string): WorktreeState => {
    made += 1;
    return { root, dir, head: objectId(`commit ${made}`), tree: objectId(`tree ${made}`), porcelain };
  };
  return {
    inspector: fake,
    async arrange(scenario) {
      const root = `/fake/repo-${made}-${scenario}`;
      const dir = `${root}/sub`;
      if (scenario === "not-a-repo") return root;
      if (scenario === "no-commit") {
        fake.at(dir, { code: "git_no_commit", message: `the Git repository at ${root} has no commit yet` });
        return dir;
      }
      const state = version(root, dir, scenario === "changed" ? " M sub/a.txt\0?? sub/new dir/x y.txt\0" : "");
      states.set(dir, state);
      fake.at(dir, state);
      return dir;
    },
    async commit(dir) {
      const before = states.get(dir);
      if (before === undefined) throw new Error(`${dir} was not arranged as a repository`);
      fake.at(dir, version(before.root, dir, ""));
    },
    async symlink() {
      fake.realpaths.set("/fake/link", "/fake/target").set("/fake/target", "/fake/target");
      return { link: "/fake/link", target: "/fake/target" };
    },
  };
});

import { describeArtifactTreeContract } from "../../contract-tests/artifact-tree.contract.ts";
import { FakeArtifactTree } from "./fake-artifact-tree.ts";

const KINDS = { file: "file", dir: "dir", symlink: "symlink", fifo: "other" } as const;

describeArtifactTreeContract("FakeArtifactTree", async () => {
  const tree = new FakeArtifactTree();
  const area = "/fake/project/.pi/tasks";
  const outside = new Set(["/fake/victim/precious.txt"]);
  tree.plant("/fake/victim", "dir");
  tree.plant("/fake/victim/precious.txt", "file");
  tree.plant(area, "dir");
  return {
    tree,
    area,
    async plant(path, kind) {
      const parts = path.split("/");
      for (let depth = 1; depth < parts.length; depth++) {
        const dir = `${area}/${parts.slice(0, depth).join("/")}`;
        if (!tree.nodes.has(dir)) tree.plant(dir, "dir");
      }
      tree.plant(`${area}/${path}`, KINDS[kind], 1000, kind === "file" ? 3 : 0);
    },
    exists: async (path) => tree.nodes.has(`${area}/${path}`),
    outsideIntact: async () => [...outside].every((path) => tree.nodes.has(path)),
    async swapForLink(path, name) {
      for (const key of [...tree.nodes.keys()])
        if (key === `${area}/${path}` || key.startsWith(`${area}/${path}/`)) tree.nodes.delete(key);
      tree.plant(`${area}/${path}`, "symlink");
      outside.add(`/fake/victim/${name}`);
      tree.plant(`/fake/victim/${name}`, "file");
    },
  };
});

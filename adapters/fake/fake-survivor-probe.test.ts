import { describeSurvivorProbeContract } from "../../contract-tests/survivor-probe.contract.ts";
import { FakeSurvivorProbe } from "./fake-survivor-probe.ts";

describeSurvivorProbeContract("FakeSurvivorProbe", () => {
  const probe = new FakeSurvivorProbe();
  const hosts = new Map<number, string>();
  let next = 2_000;
  let roots = 0;
  const aliveHost = (pid: number) => [...probe.liveHosts].some((h) => h.startsWith(`${pid}@`));
  return {
    probe,
    async layout(dirs) {
      const root = `/fake/tasks-${roots++}`;
      for (const [name, files] of Object.entries(dirs))
        probe.dirs.push({ dir: `${root}/${name}`, metadataFiles: files.map((f) => `${root}/${name}/${f}`) });
      return root;
    },
    claim: (dir) => probe.liveDirs.add(dir),
    release: (dir) => probe.liveDirs.delete(dir),
    async startHost() {
      const identity = { pid: next++, startedAt: `boot/${next}` };
      hosts.set(identity.pid, identity.startedAt);
      probe.liveHosts.add(`${identity.pid}@${identity.startedAt}`);
      return identity;
    },
    async startTagged(tag) {
      const pid = next++;
      probe.tagged.set(tag, [...(probe.tagged.get(tag) ?? []), pid]);
      return pid;
    },
    async kill(pid) {
      probe.liveHosts.delete(`${pid}@${hosts.get(pid)}`);
      for (const [tag, pids] of probe.tagged)
        probe.tagged.set(
          tag,
          pids.filter((p) => p !== pid),
        );
    },
    alive: async (pid) => aliveHost(pid) || [...probe.tagged.values()].some((pids) => pids.includes(pid)),
    newTag: () => `tag-${next++}`,
    cleanUp: async () => undefined,
  };
});

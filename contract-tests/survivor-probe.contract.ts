import { afterEach, describe, expect, it } from "vitest";
import type { HostIdentity, SurvivorProbe } from "../ports/task-survival.ts";
import { expectEventually } from "./eventually.ts";

export const COVERS_PORT = "ports/task-survival.ts";

export interface SurvivorProbeSubject {
  readonly probe: SurvivorProbe;
  /** A fresh task root holding these directories and files (names only; contents do not matter). */
  layout(dirs: Readonly<Record<string, readonly string[]>>): Promise<string>;
  /** Marks `taskDir` as owned by a live task runtime of this process, or no longer. */
  claim(taskDir: string): void;
  release(taskDir: string): void;
  /** Starts another process, outside any group of ours, that runs until stopped. */
  startHost(): Promise<HostIdentity>;
  /** Starts a process outside any group of ours that carries `tag`; it may shrug SIGTERM off. */
  startTagged(tag: string, options: { readonly ignoresSigterm: boolean }): Promise<number>;
  /** Ends a process this subject started, at once. */
  kill(pid: number): Promise<void>;
  /** Whether `pid` is alive (not a zombie). */
  alive(pid: number): Promise<boolean>;
  /** A tag no other process carries. */
  newTag(): string;
  /** Stops whatever it started that is still running. */
  cleanUp(): Promise<void>;
}

export function describeSurvivorProbeContract(name: string, makeSubject: () => SurvivorProbeSubject): void {
  describe(`SurvivorProbe contract: ${name}`, () => {
    let open: SurvivorProbeSubject[] = [];
    const subject = () => {
      const made = makeSubject();
      open.push(made);
      return made;
    };
    afterEach(async () => {
      await Promise.all(open.map((s) => s.cleanUp()));
      open = [];
    });

    it("lists each task directory's metadata files, sorted, and nothing else", async () => {
      const { probe, layout } = subject();
      const root = await layout({
        "s-1-10": ["b2.json", "b1.json", "b1.exit.json", "b1.output", "b1.attestation.json", "b2.json.123.tmp"],
        "empty-11": [],
        "outputs-12": ["b3.output"],
      });
      expect(await probe.listTaskDirs(root)).toEqual([
        { dir: `${root}/s-1-10`, metadataFiles: [`${root}/s-1-10/b1.json`, `${root}/s-1-10/b2.json`] },
      ]);
      expect(await probe.listTaskDirs(`${root}/absent`)).toEqual([]);
    });

    it("counts this process as a live host only while one of its runtimes owns the directory", async () => {
      const { probe, layout, claim, release } = subject();
      const dir = `${await layout({ own: [] })}/own`;
      expect(await probe.hostAlive(probe.self, dir)).toBe(false);
      claim(dir);
      expect(await probe.hostAlive(probe.self, dir)).toBe(true);
      expect(await probe.hostAlive({ pid: probe.self.pid, startedAt: `${probe.self.startedAt}-other` }, dir)).toBe(
        false,
      );
      release(dir);
      expect(await probe.hostAlive(probe.self, dir)).toBe(false);
    });

    it("counts another host alive with its own stamp, dead with another one (a reused pid) or once it ended", async () => {
      const { probe, startHost, kill } = subject();
      const host = await startHost();
      expect(await probe.hostAlive(host, "/unused")).toBe(true);
      expect(await probe.hostAlive({ pid: host.pid, startedAt: `${host.startedAt}0` }, "/unused")).toBe(false);
      await kill(host.pid);
      await expectEventually(async () => !(await probe.hostAlive(host, "/unused")));
    });

    it("finds the processes carrying a tag and stops them all, SIGKILL for one that ignores SIGTERM", async () => {
      const s = subject();
      const [tag, otherTag] = [s.newTag(), s.newTag()];
      const polite = await s.startTagged(tag, { ignoresSigterm: false });
      const stubborn = await s.startTagged(tag, { ignoresSigterm: true });
      const bystander = await s.startTagged(otherTag, { ignoresSigterm: false });
      await expectEventually(async () => {
        const found = await s.probe.taggedProcesses(tag);
        return found.includes(polite) && found.includes(stubborn);
      });
      expect([await s.probe.carriesTag(polite, tag), await s.probe.carriesTag(bystander, tag)]).toEqual([true, false]);
      expect(await s.probe.stopTagged(tag, 300)).toEqual(expect.arrayContaining([polite, stubborn]));
      expect(await s.probe.taggedProcesses(tag)).toEqual([]);
      expect([await s.alive(polite), await s.alive(stubborn)]).toEqual([false, false]);
      expect(await s.probe.carriesTag(bystander, otherTag)).toBe(true);
    });

    it("finds nothing to stop for a tag nobody carries", async () => {
      const { probe, newTag } = subject();
      const tag = newTag();
      expect(await probe.taggedProcesses(tag)).toEqual([]);
      expect(await probe.stopTagged(tag, 100)).toEqual([]);
    });
  });
}

import { describe, expect, it } from "vitest";
import type { ContainerBackends } from "../ports/container-backend.ts";
import type { LaunchCommand } from "../ports/process-launcher.ts";
import { drain } from "./process-output.ts";

export const COVERS_PORT = "ports/container-backend.ts";

export interface ContainerBackendsSubject {
  readonly backends: ContainerBackends;
  /** An image the engine holds, and one it does not. */
  readonly image: string;
  readonly missingImage: string;
  /** A directory the task may run in. */
  readonly dir: string;
  /** Prints `text` on stdout and exits with `code`. */
  printAndExit(text: string, code: number): LaunchCommand;
  /** A task container that prints `text` and exits with `code` (now or soon), whose host is gone. */
  startOrphan(text: string, code: number): Promise<{ readonly id: string; readonly tag: string }>;
  /** The bytes of a file, or undefined. */
  readFile(path: string): Promise<Uint8Array | undefined>;
}

const HOST = { pid: 4242, startedAt: "contract" };
const POLICY = { afterShellExit: { remaining: "stop", graceMs: 500 }, killGraceMs: 500 } as const;

export function describeContainerBackendsContract(
  name: string,
  makeSubject: () => Promise<ContainerBackendsSubject>,
): void {
  describe(`ContainerBackends contract: ${name}`, () => {
    it("an image the engine lacks is refused before anything starts, naming the image and what to do", async () => {
      const subject = await makeSubject();
      const refused = await subject.backends.prepare(
        { runOn: "docker", image: subject.missingImage },
        { id: "t1", host: HOST },
      );
      expect(refused.ok || refused.error).toMatchObject({
        code: "container_image_missing",
        message: expect.stringContaining(`docker pull ${subject.missingImage}`),
      });
    });

    it("a present image: the facts name it and its id, and the task runs in it to its exit", async () => {
      const subject = await makeSubject();
      const ready = await subject.backends.prepare({ runOn: "docker", image: subject.image }, { id: "t2", host: HOST });
      if (!ready.ok) throw new Error(ready.error.message);
      expect(ready.value.facts).toMatchObject({ runOn: "docker", image: subject.image, tree: "bind" });
      expect(ready.value.facts.imageId).toMatch(/\S/);
      const files = {
        exitPath: `${subject.dir}/t2.exit.json`,
        spillPath: `${subject.dir}/t2.spill`,
        spillCapBytes: 100,
      };
      const wrapped = ready.value.supervisor.wrap(subject.printAndExit("inside ✓", 3), {}, files, POLICY);
      const launched = await ready.value.supervisor.launch(wrapped, subject.dir);
      if (!launched.ok) throw new Error(launched.error.message);
      const [stdout, , exit] = await Promise.all([
        drain(launched.value.stdout),
        drain(launched.value.stderr),
        launched.value.exited,
      ]);
      expect(new TextDecoder().decode(stdout)).toBe("inside ✓");
      expect(exit).toEqual({ code: 3, signal: null });
      await launched.value.release?.();
    });

    it("an orphan's container: the log after what the host had goes to the spill file, the exit code to the record, and it is removed", async () => {
      const subject = await makeSubject();
      const { id, tag } = await subject.startOrphan("head|rest ✓", 5);
      const files = {
        exitPath: `${subject.dir}/${id}.adopted.exit.json`,
        spillPath: `${subject.dir}/${id}.adopted.spill`,
        spillCapBytes: 100,
      };
      const stranger = await subject.backends.adoptOrphan({ id, processTag: "f".repeat(32), files, skipBytes: 0 });
      expect(stranger.state).toBe("missing"); // the labels must match the task's tag too
      const adopted = await subject.backends.adoptOrphan({ id, processTag: tag, files, skipBytes: 5 });
      if (!("settled" in adopted)) throw new Error(adopted.problem);
      await adopted.settled;
      expect(new TextDecoder().decode(await subject.readFile(files.spillPath))).toBe("rest ✓");
      const record = JSON.parse(new TextDecoder().decode(await subject.readFile(files.exitPath)));
      expect(record).toMatchObject({ code: 5, signal: null, hostGone: true, spilledBytes: 8, lostOutputBytes: 0 });
      expect((await subject.backends.adoptOrphan({ id, processTag: tag, files, skipBytes: 0 })).state).toBe("missing");
    });
  });
}

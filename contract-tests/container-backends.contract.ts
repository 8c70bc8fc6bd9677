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
  });
}

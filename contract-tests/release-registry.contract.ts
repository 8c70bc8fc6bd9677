import { afterEach, describe, expect, it } from "vitest";
import type { ReleaseRegistry } from "../ports/release-registry.ts";

export const COVERS_PORT = "ports/release-registry.ts";

export interface ReleaseRegistrySubject {
  readonly registry: ReleaseRegistry;
  close(): Promise<void>;
}

/** `makeSubject(published)` gives a registry whose `latest` dist-tag of each name in `published` is its value. */
export function describeReleaseRegistryContract(
  name: string,
  makeSubject: (published: Readonly<Record<string, string>>) => Promise<ReleaseRegistrySubject>,
): void {
  describe(`ReleaseRegistry contract: ${name}`, () => {
    let subject: ReleaseRegistrySubject | undefined;
    const open = async (published: Readonly<Record<string, string>>) => {
      subject = await makeSubject(published);
      return subject.registry;
    };
    afterEach(async () => {
      await subject?.close();
      subject = undefined;
    });

    it("answers a published package's latest dist-tag as the registry wrote it", async () => {
      const registry = await open({ "pi-background-tasks": "0.11.0-rc.1", other: "9.9.9" });
      const found = await registry.latestVersion("pi-background-tasks", AbortSignal.timeout(5_000));
      expect(found).toEqual({ ok: true, value: "0.11.0-rc.1" });
    });

    it("answers undefined, not an error, for a package it does not know", async () => {
      const registry = await open({ other: "1.0.0" });
      expect(await registry.latestVersion("pi-background-tasks", AbortSignal.timeout(5_000))).toEqual({
        ok: true,
        value: undefined,
      });
    });

    it("finds a scoped package", async () => {
      const registry = await open({ "@scope/tool": "2.0.0" });
      expect(await registry.latestVersion("@scope/tool", AbortSignal.timeout(5_000))).toEqual({
        ok: true,
        value: "2.0.0",
      });
    });

    it("ends with registry_timeout when the signal has aborted", async () => {
      const registry = await open({ "pi-background-tasks": "1.0.0" });
      const found = await registry.latestVersion("pi-background-tasks", AbortSignal.abort());
      expect(found.ok ? undefined : found.error.code).toBe("registry_timeout");
    });
  });
}

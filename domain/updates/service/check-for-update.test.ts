import { describe, expect, it } from "vitest";
import { FakeReleaseRegistry } from "../../../adapters/fake/fake-release-registry.ts";
import { updateFooterText, updateReport } from "../model/update-status.ts";
import { checkForUpdate } from "./check-for-update.ts";

const ON = { mode: "on", registryUrl: "http://127.0.0.1:1" } as const;
const installed = { name: "pi-background-tasks", version: "0.10.0" };
const check = (registry: FakeReleaseRegistry, version = installed.version) =>
  checkForUpdate(ON, { ...installed, version }, registry, AbortSignal.timeout(5_000));

describe("checkForUpdate", () => {
  it("a newer latest is announced in the footer and /bg-update says how to install it", async () => {
    const status = await check(new FakeReleaseRegistry().publish(installed.name, "0.11.0"));
    expect(status).toEqual({ kind: "newer", current: "0.10.0", latest: "0.11.0" });
    expect(updateFooterText(status)).toBe("⬆ v0.11.0 /bg-update");
    expect(updateReport(installed.name, status, ON.registryUrl)).toContain("pi install npm:pi-background-tasks@0.11.0");
  });

  it("an equal, older or pre-release latest is no update", async () => {
    for (const latest of ["0.10.0", "0.9.0", "0.10.0-rc.3", "v0.10.0+build.1"]) {
      const status = await check(new FakeReleaseRegistry().publish(installed.name, latest));
      expect(status.kind, latest).toBe("current");
      expect(updateFooterText(status)).toBeUndefined();
    }
  });

  it("a pre-release install sees its release as newer", async () => {
    const status = await check(new FakeReleaseRegistry().publish(installed.name, "0.11.0"), "0.11.0-rc.2");
    expect(status).toMatchObject({ kind: "newer", latest: "0.11.0" });
  });

  it("an unpublished package (404) is no newer release, silently", async () => {
    const status = await check(new FakeReleaseRegistry());
    expect(status).toEqual({ kind: "unpublished", current: "0.10.0" });
    expect(updateFooterText(status)).toBeUndefined();
    expect(updateReport(installed.name, status, ON.registryUrl)).toContain("no newer release");
  });

  it("a registry failure or a latest that is not a version is unavailable, with its code, and never in the footer", async () => {
    const failing = new FakeReleaseRegistry().failWith({ code: "registry_http_error", message: "HTTP 500" });
    const failed = await check(failing);
    expect(failed).toMatchObject({ kind: "unavailable", error: { code: "registry_http_error" } });
    expect(updateFooterText(failed)).toBeUndefined();
    expect(updateReport(installed.name, failed, ON.registryUrl)).toMatch(/could not check .*registry_http_error/);
    const garbage = await check(new FakeReleaseRegistry().publish(installed.name, "banana"));
    expect(garbage).toMatchObject({ kind: "unavailable", error: { code: "registry_bad_response" } });
    const local = await check(new FakeReleaseRegistry().publish(installed.name, "1.0.0"), "local-build");
    expect(local).toMatchObject({ kind: "unavailable", error: { code: "version_unreadable" } });
  });

  it("off sends nothing", async () => {
    const registry = new FakeReleaseRegistry().publish(installed.name, "9.0.0");
    const status = await checkForUpdate(
      { mode: "off", because: "PI_OFFLINE" },
      installed,
      registry,
      AbortSignal.abort(),
    );
    expect(status).toEqual({ kind: "off", because: "PI_OFFLINE" });
    expect(registry.calls).toBe(0);
    expect(updateReport(installed.name, status, undefined)).toContain("nothing was sent");
  });
});

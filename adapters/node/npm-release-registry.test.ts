import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeReleaseRegistryContract } from "../../contract-tests/release-registry.contract.ts";
import { startLoopbackNpmRegistry, type LoopbackNpmRegistry } from "../fake/loopback-npm-registry.ts";
import { NpmReleaseRegistry } from "./npm-release-registry.ts";

describeReleaseRegistryContract("NpmReleaseRegistry on a loopback registry", async (published) => {
  const server = await startLoopbackNpmRegistry();
  for (const [name, latest] of Object.entries(published)) server.answer(name, { kind: "published", latest });
  return { registry: new NpmReleaseRegistry(server.url), close: () => server.close() };
});

describe("NpmReleaseRegistry: what it sends and how it fails", () => {
  let server: LoopbackNpmRegistry;
  beforeEach(async () => {
    server = await startLoopbackNpmRegistry();
  });
  afterEach(async () => {
    await server.close();
  });
  const lookup = (timeoutMs = 5_000, cap?: number) =>
    new NpmReleaseRegistry(`${server.url}/`, cap).latestVersion("pi-background-tasks", AbortSignal.timeout(timeoutMs));
  const code = async (promise: ReturnType<typeof lookup>) => {
    const found = await promise;
    return found.ok ? `ok ${found.value}` : found.error.code;
  };

  it("sends one bodiless GET of the package's metadata, asking for the abbreviated document, and no credential", async () => {
    server.answer("pi-background-tasks", { kind: "published", latest: "1.0.0" });
    expect(await code(lookup())).toBe("ok 1.0.0");
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "GET", url: "/pi-background-tasks", bodyBytes: 0 });
    expect(request?.headers.accept).toContain("application/vnd.npm.install-v1+json");
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers.cookie).toBeUndefined();
  });

  it("a 500 is registry_http_error naming the status", async () => {
    server.answer("pi-background-tasks", { kind: "status", status: 500 });
    const found = await lookup();
    expect(found).toMatchObject({ ok: false, error: { code: "registry_http_error" } });
    expect(found.ok ? "" : found.error.message).toContain("HTTP 500");
  });

  it("a body that is not JSON, or JSON without dist-tags.latest, is registry_bad_response", async () => {
    server.answer("pi-background-tasks", { kind: "body", body: "<html>proxy login</html>" });
    expect(await code(lookup())).toBe("registry_bad_response");
    server.answer("pi-background-tasks", { kind: "body", body: '{"dist-tags":{"next":"2.0.0"}}' });
    expect(await code(lookup())).toBe("registry_bad_response");
    server.answer("pi-background-tasks", { kind: "body", body: '{"dist-tags":{"latest":7}}' });
    expect(await code(lookup())).toBe("registry_bad_response");
  });

  it("a registry that stalls past the time box is registry_timeout, ended by the signal", async () => {
    server.answer("pi-background-tasks", { kind: "stall" });
    expect(await code(lookup(300))).toBe("registry_timeout");
  });

  it("stops reading past the body cap: registry_response_too_large", async () => {
    server.answer("pi-background-tasks", { kind: "huge", bytes: 1024 * 1024 });
    expect(await code(lookup(5_000, 64 * 1024))).toBe("registry_response_too_large");
  });

  it("a registry that refuses connections is registry_unreachable", async () => {
    const url = server.url;
    await server.close();
    const found = await new NpmReleaseRegistry(url).latestVersion("x", AbortSignal.timeout(5_000));
    expect(found.ok ? "" : found.error.code).toBe("registry_unreachable");
    server = await startLoopbackNpmRegistry();
  });
});

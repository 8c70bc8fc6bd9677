import { describe, expect, it } from "vitest";
import { guardPolicy, isLoopbackHost, refusalOf } from "./http-request-guard.ts";

const policy = guardPolicy("127.0.0.1", 4100, "s3cret-token");

describe("refusalOf", () => {
  it("lets a loopback request with the token through, under any loopback name", () => {
    for (const host of ["127.0.0.1:4100", "localhost:4100", "[::1]:4100"])
      expect(refusalOf({ host, authorization: "Bearer s3cret-token" }, policy)).toBeUndefined();
    expect(
      refusalOf(
        { host: "localhost:4100", origin: "http://localhost:4100", authorization: "bearer s3cret-token" },
        policy,
      ),
    ).toBeUndefined();
  });

  it("refuses another Host or Origin with 403 before looking at the token (DNS rebinding)", () => {
    expect(refusalOf({ host: "evil.example:4100", authorization: "Bearer s3cret-token" }, policy)?.status).toBe(403);
    expect(refusalOf({ host: "127.0.0.1:4101", authorization: "Bearer s3cret-token" }, policy)?.status).toBe(403);
    expect(refusalOf({ authorization: "Bearer s3cret-token" }, policy)?.status).toBe(403);
    const page = { host: "127.0.0.1:4100", origin: "http://evil.example", authorization: "Bearer s3cret-token" };
    expect(refusalOf(page, policy)?.status).toBe(403);
  });

  it("refuses a missing, wrong or differently sized token with 401", () => {
    for (const authorization of [undefined, "Bearer wrong-token!", "Bearer s3cret-toke", "Basic s3cret-token"])
      expect(refusalOf({ host: "127.0.0.1:4100", authorization }, policy)?.status).toBe(401);
  });

  it("without a token only Host and Origin are checked", () => {
    const open = guardPolicy("127.0.0.1", 4100, undefined);
    expect(refusalOf({ host: "127.0.0.1:4100" }, open)).toBeUndefined();
    expect(refusalOf({ host: "rebound.example:4100" }, open)?.status).toBe(403);
  });

  it("a non-loopback bind answers only to its own address", () => {
    const lan = guardPolicy("10.0.0.5", 80, "t");
    expect(refusalOf({ host: "10.0.0.5:80", authorization: "Bearer t" }, lan)).toBeUndefined();
    expect(refusalOf({ host: "localhost:80", authorization: "Bearer t" }, lan)?.status).toBe(403);
  });
});

describe("isLoopbackHost", () => {
  it("knows the loopback names and nothing else", () => {
    expect(["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"].every(isLoopbackHost)).toBe(true);
    expect(["0.0.0.0", "10.0.0.5", "::", "localhost.example", "128.0.0.1"].some(isLoopbackHost)).toBe(false);
  });
});

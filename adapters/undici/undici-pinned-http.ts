import type { LookupFunction } from "node:net";
import { Agent, buildConnector, request, type Dispatcher } from "undici";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import { classifyHost, type AddressPolicy } from "../../domain/web/model/address-policy.ts";
import type { IpAddress } from "../../domain/web/model/ip-address.ts";
import { parseContentType } from "../../domain/web/model/media-type.ts";
import { vetResolvedAddresses } from "../../domain/web/model/vet-resolved-addresses.ts";
import { webFetchError } from "../../domain/web/model/web-fetch-error.ts";
import { resolveRedirectUrl, type WebUrl } from "../../domain/web/model/web-url.ts";
import type { DnsResolver } from "../../ports/dns-resolver.ts";
import type {
  PinnedGetRequest,
  PinnedHop,
  PinnedHttp,
  PinnedHttpError,
  PinnedResponse,
} from "../../ports/pinned-http.ts";
import { DEADLINE_PASSED, raceSignal, startDeadline, type FetchDeadline } from "./fetch-deadline.ts";
import { pinnedConnector, type PinRecord } from "./pinned-connector.ts";
import { discardBody, readCappedBody } from "./read-capped-body.ts";

export interface UndiciPinnedHttpOptions {
  readonly resolver: DnsResolver;
  readonly policy: AddressPolicy;
  /** Test seam: the socket factory. Default: undici's connector (TLS verified), with DNS disabled. */
  readonly dial?: buildConnector.connector;
  /** Replaces the default connector's trusted CAs (tests only, e.g. a self-signed loopback host). */
  readonly ca?: string;
}

interface Pin {
  readonly address: string;
  readonly connector: buildConnector.connector;
  readonly record: PinRecord;
}

type ResponseData = Dispatcher.ResponseData;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Node's `net.connect` never resolves an IP literal; a name reaching this lookup is a bug, so it fails. */
const refuseLookup: LookupFunction = (hostname, _options, callback) => {
  callback(new Error(`DNS lookup of '${hostname}' inside the pinned connector is not allowed`), "", 0);
};

export class UndiciPinnedHttp implements PinnedHttp {
  private readonly dial: buildConnector.connector;
  private readonly agents = new Set<Agent>();
  private closed = false;

  constructor(private readonly options: UndiciPinnedHttpOptions) {
    // timeout 0: no separate connect timer; the single fetch deadline governs connecting too.
    this.dial =
      options.dial ??
      buildConnector({ lookup: refuseLookup, timeout: 0, ...(options.ca === undefined ? {} : { ca: options.ca }) });
  }

  async get(request: PinnedGetRequest): Promise<Result<PinnedResponse, PinnedHttpError>> {
    if (this.closed) return err(webFetchError("network_error", "the HTTP client is closed", { url: request.url.href }));
    const deadline = startDeadline(request.timeoutMs, request.signal);
    try {
      return await this.follow(request, deadline);
    } finally {
      deadline.dispose();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.agents].map((agent) => agent.destroy()));
  }

  private async follow(
    req: PinnedGetRequest,
    deadline: FetchDeadline,
  ): Promise<Result<PinnedResponse, PinnedHttpError>> {
    const hops: PinnedHop[] = [];
    let url = req.url;
    for (let hop = 0; ; hop++) {
      if (this.closed)
        return err(
          webFetchError("network_error", "the HTTP client was closed during the fetch", { url: url.href, hop }),
        );
      const pin = await this.pin(url, hop, deadline);
      if (!pin.ok) return pin;
      const agent = this.agent(pin.value.connector);
      try {
        const sent = await this.send(url, req, agent, deadline, pin.value, hop);
        if (!sent.ok) return sent;
        const response = sent.value;
        hops.push({ url: url.href, status: response.statusCode, address: pin.value.address });
        const location = header(response, "location");
        if (REDIRECTS.has(response.statusCode) && location !== undefined) {
          discardBody(response.body);
          if (hop >= req.maxRedirects)
            return err(
              webFetchError("redirect_limit", `more than ${req.maxRedirects} redirects`, { url: url.href, hop }),
            );
          const next = resolveRedirectUrl(location, url);
          if (!next.ok)
            return err(
              webFetchError("redirect_blocked", `redirect refused: ${next.error.message}`, {
                url: url.href,
                hop: hop + 1,
              }),
            );
          const refused = req.vetRedirect?.(next.value.href);
          if (refused !== undefined) return err(refused);
          url = next.value;
          continue;
        }
        return await this.finish(req, url, response, hops, deadline, pin.value, hop);
      } finally {
        await this.release(agent);
      }
    }
  }

  /** Vets the host (and, for a name, every resolved address) and builds a connector pinned to the first. */
  private async pin(url: WebUrl, hop: number, deadline: FetchDeadline): Promise<Result<Pin, PinnedHttpError>> {
    const refused = (message: string, extra: { address?: string; category?: string }) =>
      err(webFetchError(hop === 0 ? "blocked_address" : "redirect_blocked", message, { url: url.href, hop, ...extra }));
    const host = classifyHost(url.hostname, this.options.policy);
    if (host.kind === "refused_name") return refused(host.reason, { category: host.category });
    if (host.kind === "address") {
      const verdict = host.verdict;
      if (!verdict.allowed) return refused(verdict.reason, { address: verdict.address, category: verdict.category });
      return ok(this.pinTo(url, verdict.ip, verdict.address));
    }
    const answers = await this.resolve(host.hostname, url, hop, deadline);
    if (!answers.ok) return answers;
    const vetted = vetResolvedAddresses(host.hostname, answers.value, this.options.policy);
    if (!vetted.ok) {
      const e = vetted.error;
      if (e.code === "dns_failure") return err({ ...e, url: url.href, hop });
      return refused(e.message, {
        ...(e.address === undefined ? {} : { address: e.address }),
        ...(e.category === undefined ? {} : { category: e.category }),
      });
    }
    return ok(this.pinTo(url, vetted.value.pinned, vetted.value.pinnedText));
  }

  private pinTo(url: WebUrl, ip: IpAddress, address: string): Pin {
    const record: PinRecord = { dials: 0 };
    const connector = pinnedConnector({
      hostname: url.hostname,
      pinned: ip,
      policy: this.options.policy,
      dial: this.dial,
      record,
    });
    return { address, connector, record };
  }

  private async resolve(
    hostname: string,
    url: WebUrl,
    hop: number,
    deadline: FetchDeadline,
  ): Promise<Result<readonly string[], PinnedHttpError>> {
    let answer: Awaited<ReturnType<DnsResolver["resolveAll"]>> | typeof DEADLINE_PASSED;
    try {
      answer = await raceSignal(this.options.resolver.resolveAll(hostname, deadline.signal), deadline.signal);
    } catch (error) {
      return err(
        webFetchError("dns_failure", `resolving '${hostname}' failed: ${messageOf(error)}`, { url: url.href, hop }),
      );
    }
    if (answer === DEADLINE_PASSED) return err(this.aborted(deadline, url, hop, `while resolving '${hostname}'`));
    if (!answer.ok) return err(webFetchError("dns_failure", answer.error.message, { url: url.href, hop }));
    return ok(answer.value);
  }

  private agent(connector: buildConnector.connector): Agent {
    // Our deadline governs time; undici's own timers are off. One connection, never reused across hops.
    const agent = new Agent({
      connect: connector,
      connections: 1,
      pipelining: 1,
      headersTimeout: 0,
      bodyTimeout: 0,
      keepAliveTimeout: 1,
    });
    this.agents.add(agent);
    return agent;
  }

  private async release(agent: Agent): Promise<void> {
    this.agents.delete(agent);
    await agent.destroy().catch(() => undefined);
  }

  private async send(
    url: WebUrl,
    req: PinnedGetRequest,
    agent: Agent,
    deadline: FetchDeadline,
    pin: Pin,
    hop: number,
  ): Promise<Result<ResponseData, PinnedHttpError>> {
    try {
      const response = await request(url.href, {
        method: "GET",
        dispatcher: agent,
        signal: deadline.signal,
        headers: { "user-agent": req.userAgent, accept: req.accept, "accept-encoding": "identity" },
      });
      return ok(response);
    } catch (error) {
      return err(this.failure(error, deadline, pin, url, hop));
    }
  }

  private async finish(
    req: PinnedGetRequest,
    url: WebUrl,
    response: ResponseData,
    hops: readonly PinnedHop[],
    deadline: FetchDeadline,
    pin: Pin,
    hop: number,
  ): Promise<Result<PinnedResponse, PinnedHttpError>> {
    const status = response.statusCode;
    const fail = (code: PinnedHttpError["code"], message: string) => {
      discardBody(response.body);
      return err(webFetchError(code, message, { url: url.href, status, hop }));
    };
    if (status < 200 || status > 299) return fail("http_error", `HTTP status ${status}`);
    const contentType = header(response, "content-type") ?? "";
    const parsed = parseContentType(contentType);
    if (parsed === undefined || !req.acceptedMediaTypes.includes(parsed.mediaType)) {
      return fail(
        "unsupported_content_type",
        `content type '${contentType || "(none)"}' is not one of ${req.acceptedMediaTypes.join(", ")}`,
      );
    }
    const encoding = header(response, "content-encoding")?.trim().toLowerCase();
    if (encoding !== undefined && encoding !== "" && encoding !== "identity") {
      return fail("unsupported_content_type", `content encoding '${encoding}' was not requested and is not decoded`);
    }
    const declared = Number(header(response, "content-length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > req.maxResponseBytes) {
      return fail("response_too_large", `the response declares ${declared} bytes; the cap is ${req.maxResponseBytes}`);
    }
    const body = await readCappedBody(response.body, req.maxResponseBytes);
    if (body.kind === "too_large")
      return err(
        webFetchError("response_too_large", `the response body exceeds ${req.maxResponseBytes} bytes`, {
          url: url.href,
          status,
          hop,
        }),
      );
    if (body.kind === "failed") return err(this.failure(body.error, deadline, pin, url, hop));
    return ok({ url: req.url.href, finalUrl: url.href, status, contentType, body: body.bytes, hops });
  }

  private failure(error: unknown, deadline: FetchDeadline, pin: Pin, url: WebUrl, hop: number): PinnedHttpError {
    const violation = pin.record.violation;
    if (violation !== undefined) {
      const { address, category, reason } = violation;
      return webFetchError(hop === 0 ? "blocked_address" : "redirect_blocked", reason, {
        url: url.href,
        hop,
        address,
        ...(category === undefined ? {} : { category }),
      });
    }
    if (deadline.timedOut || deadline.callerAborted) return this.aborted(deadline, url, hop, `fetching ${url.href}`);
    return webFetchError("network_error", `fetching ${url.href} failed: ${messageOf(error)}`, { url: url.href, hop });
  }

  private aborted(deadline: FetchDeadline, url: WebUrl, hop: number, during: string): PinnedHttpError {
    if (deadline.timedOut)
      return webFetchError("request_timeout", `the deadline passed ${during}`, { url: url.href, hop });
    return webFetchError("network_error", `the fetch was cancelled by the caller ${during}`, { url: url.href, hop });
  }
}

function header(response: ResponseData, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${error.message}` : error.message;
}

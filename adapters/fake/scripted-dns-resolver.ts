import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import { parseIpv4Strict, parseIpv6 } from "../../domain/web/model/ip-address.ts";
import type { DnsResolveError, DnsResolver } from "../../ports/dns-resolver.ts";

export type ScriptedDnsAnswer = readonly string[] | "fail" | "hang";

/**
 * Answers per hostname; a list of answers is consumed one per call (the last one repeats). As a system
 * resolver does, it answers an IP literal with itself and any other unscripted name with dns_failure.
 */
export class ScriptedDnsResolver implements DnsResolver {
  readonly calls: string[] = [];
  constructor(private readonly script: Readonly<Record<string, readonly ScriptedDnsAnswer[]>>) {}

  callsFor(hostname: string): number {
    return this.calls.filter((name) => name === hostname).length;
  }

  resolveAll(hostname: string, signal: AbortSignal): Promise<Result<readonly string[], DnsResolveError>> {
    if (signal.aborted) return failure(`resolving '${hostname}' was cancelled`);
    const literal = parseIpv4Strict(hostname) ?? parseIpv6(hostname);
    const answers = this.script[hostname] ?? [literal === undefined ? "fail" : [hostname]];
    const answer = answers[Math.min(this.callsFor(hostname), answers.length - 1)] ?? "fail";
    this.calls.push(hostname);
    if (answer === "hang") return new Promise(() => undefined);
    if (answer === "fail") return failure(`scripted: no such host '${hostname}'`);
    return Promise.resolve(ok(answer));
  }
}

const failure = (message: string) => Promise.resolve(err<DnsResolveError>({ code: "dns_failure", message }));

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { SystemClock } from "../adapters/node/system-clock.ts";
import { installFusionWebFetch } from "../adapters/pi/child/fusion-web-fetch-extension.ts";
import { SystemDnsResolver } from "../adapters/undici/system-dns-resolver.ts";
import { TurndownPageExtractor } from "../adapters/undici/turndown-page-extractor.ts";
import { UndiciPinnedHttp } from "../adapters/undici/undici-pinned-http.ts";

/**
 * Private extension of research candidate children: `pi … --extension <this file>` with
 * `PI_FUSION_RESEARCH_ENABLED=1` registers `fusion_web_fetch`, wired to the DNS-pinned undici fetcher,
 * the system resolver and turndown. Without that variable it registers nothing.
 */
export default function fusionWebFetchChildExtension(pi: ExtensionAPI): void {
  installFusionWebFetch(
    pi,
    process.env,
    (policy) => {
      const http = new UndiciPinnedHttp({ resolver: new SystemDnsResolver(), policy });
      return {
        deps: { http, extractor: new TurndownPageExtractor(), clock: new SystemClock(), policy },
        close: () => http.close(),
      };
    },
    (line) => process.stderr.write(`${line}\n`),
  );
}

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { SystemClock } from "../../node/system-clock.ts";
import { installFusionWebFetch } from "./fusion-web-fetch-extension.ts";
import { SystemDnsResolver } from "../../undici/system-dns-resolver.ts";
import { TurndownPageExtractor } from "../../undici/turndown-page-extractor.ts";
import { UndiciPinnedHttp } from "../../undici/undici-pinned-http.ts";

/**
 * Private extension of research candidate children: `pi … --extension <this file>` with
 * `PI_FUSION_RESEARCH_ENABLED=1` registers `fusion_web_fetch`, wired to the DNS-pinned undici fetcher,
 * the system resolver and turndown. Without that variable it registers nothing. A child program is the
 * composition root of its own process, so it may wire other adapters (contract-tests/import-rules.ts).
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

import type { ServerResponse } from "node:http";
import { describePinnedHttpContract, SITE, type SitePage } from "../../contract-tests/pinned-http.contract.ts";
import { ScriptedDnsResolver } from "../fake/scripted-dns-resolver.ts";
import { startLoopbackWebServer, type Route } from "./loopback-web-server.test-support.ts";
import { ADMIT_LOOPBACK, LoopbackDialSpy } from "./pinned-http.test-support.ts";
import { UndiciPinnedHttp } from "./undici-pinned-http.ts";

function route(page: SitePage): Route {
  return (_request, response: ServerResponse) => {
    const headers: Record<string, string> = {};
    if (page.contentType !== undefined) headers["content-type"] = page.contentType;
    if (page.location !== undefined) headers.location = page.location;
    response.writeHead(page.status, headers);
    if (page.hang === true) response.flushHeaders();
    else response.end(page.body ?? "");
  };
}

describePinnedHttpContract("UndiciPinnedHttp on a loopback site", async () => {
  const server = await startLoopbackWebServer(
    Object.fromEntries(Object.entries(SITE).map(([path, page]) => [path, route(page)])),
  );
  const resolver = new ScriptedDnsResolver({ "site.test": [["127.0.0.1"]], "inside.test": [["10.0.0.7"]] });
  return {
    http: new UndiciPinnedHttp({ resolver, policy: ADMIT_LOOPBACK, dial: new LoopbackDialSpy().connect }),
    port: server.port,
    requests: () => server.requests.map((r) => ({ path: r.path, userAgent: r.userAgent, accept: r.accept })),
    close: () => server.close(),
  };
});

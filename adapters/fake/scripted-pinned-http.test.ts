import { describePinnedHttpContract, SITE } from "../../contract-tests/pinned-http.contract.ts";
import { cidrOf } from "../../domain/web/model/cidr.ts";
import { ScriptedDnsResolver } from "./scripted-dns-resolver.ts";
import { ScriptedPinnedHttp } from "./scripted-pinned-http.ts";

const PORT = 8080;

describePinnedHttpContract("ScriptedPinnedHttp", async () => {
  const pages = Object.fromEntries(
    Object.entries(SITE).map(([path, page]) => [`http://site.test:${PORT}${path}`, page]),
  );
  const http = new ScriptedPinnedHttp({
    resolver: new ScriptedDnsResolver({ "site.test": [["127.0.0.1"]], "inside.test": [["10.0.0.7"]] }),
    policy: { admittedSubnets: [cidrOf("127.0.0.0/8")] },
    pages,
  });
  return {
    http,
    port: PORT,
    requests: () =>
      http.requests.map((r) => ({ path: new URL(r.url).pathname, userAgent: r.userAgent, accept: r.accept })),
    close: async () => undefined,
  };
});

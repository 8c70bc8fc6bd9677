import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How the fake registry answers a package's metadata request. */
export type RegistryAnswer =
  | { readonly kind: "published"; readonly latest: string }
  | { readonly kind: "not_found" }
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "body"; readonly body: string }
  /** Sends headers, then nothing until the server closes. */
  | { readonly kind: "stall" }
  /** A 200 whose body goes on and on (`bytes` in total). */
  | { readonly kind: "huge"; readonly bytes: number };

export interface RegistryRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly bodyBytes: number;
}

export interface LoopbackNpmRegistry {
  /** `http://127.0.0.1:<port>`, for PI_BG_REGISTRY_URL. */
  readonly url: string;
  readonly requests: readonly RegistryRequest[];
  /** Requests whose exchange has not ended yet (a stalled answer stays open until the client gives up). */
  inFlight(): number;
  answer(name: string, answer: RegistryAnswer): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, answer: RegistryAnswer, name: string): void {
  switch (answer.kind) {
    case "published": {
      const doc = { name, "dist-tags": { latest: answer.latest }, versions: { [answer.latest]: { name } } };
      res.writeHead(200, { "content-type": "application/vnd.npm.install-v1+json" }).end(JSON.stringify(doc));
      return;
    }
    case "not_found":
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
      return;
    case "status":
      res.writeHead(answer.status, { "content-type": "text/plain" }).end("registry trouble");
      return;
    case "body":
      res.writeHead(200, { "content-type": "application/json" }).end(answer.body);
      return;
    case "stall":
      res.writeHead(200, { "content-type": "application/json" }).write('{"dist-tags":');
      return;
    case "huge":
      res.writeHead(200, { "content-type": "application/json" });
      writeHuge(res, answer.bytes);
      return;
  }
}

function writeHuge(res: ServerResponse, bytes: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let left = bytes;
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      const part = chunk.subarray(0, Math.min(chunk.length, left));
      left -= part.length;
      if (!res.write(part)) return void res.once("drain", pump);
    }
    res.end();
  };
  pump();
}

/**
 * An npm registry on 127.0.0.1 for tests: `GET /<name>` answers what `answer(name, …)` set (404 for
 * names it was not told about) and every request is recorded, so a test can prove none was made.
 */
export async function startLoopbackNpmRegistry(): Promise<LoopbackNpmRegistry> {
  const answers = new Map<string, RegistryAnswer>();
  const requests: RegistryRequest[] = [];
  let inFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    res.once("close", () => inFlight--);
    let bodyBytes = 0;
    req.on("data", (chunk: Buffer) => {
      bodyBytes += chunk.length;
    });
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, bodyBytes });
      const name = decodeURIComponent((req.url ?? "/").slice(1).split("?")[0] ?? "");
      send(res, answers.get(name) ?? { kind: "not_found" }, name);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inFlight: () => inFlight,
    answer: (name, answer) => void answers.set(name, answer),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

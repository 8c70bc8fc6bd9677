import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import type { TLSSocket } from "node:tls";

/**
 * A scripted web host on 127.0.0.1 for the pinned-HTTP tests: routes by path, and records every TCP
 * connection and request so a test can prove that a refusal opened no socket.
 */
export type Route = (request: IncomingMessage, response: ServerResponse) => void;

export interface SeenRequest {
  readonly path: string;
  readonly host: string | undefined;
  readonly userAgent: string | undefined;
  readonly accept: string | undefined;
  readonly servername: string | undefined;
}

export interface LoopbackWebServer {
  readonly port: number;
  readonly connections: number;
  readonly requests: readonly SeenRequest[];
  close(): Promise<void>;
}

export interface TlsMaterial {
  readonly key: string;
  readonly cert: string;
}

export async function startLoopbackWebServer(
  routes: Readonly<Record<string, Route>>,
  tls?: TlsMaterial,
): Promise<LoopbackWebServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    const servername = (request.socket as Partial<TLSSocket>).servername;
    requests.push({
      path,
      host: request.headers.host,
      userAgent: request.headers["user-agent"],
      accept: request.headers.accept,
      servername: typeof servername === "string" ? servername : undefined,
    });
    const route = routes[path];
    if (route === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    route(request, response);
  };
  const server: Server | HttpsServer =
    tls === undefined ? createServer(handle) : createTlsServer({ key: tls.key, cert: tls.cert }, handle);
  server.on("connection", (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    get connections() {
      return connections;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

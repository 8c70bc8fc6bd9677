import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { BoundedEventStore } from "../../adapters/mcp/bounded-event-store.ts";
import { NodeFileCommitter } from "../../adapters/node/node-file-committer.ts";
import { ensureArtifactDir } from "../../domain/shared/service/artifact-dir.ts";
import { guardPolicy, refusalOf } from "../../adapters/mcp/http-request-guard.ts";
import { SessionActivity } from "../../adapters/mcp/session-activity.ts";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import type { TypedError } from "../../domain/shared/model/result.ts";
import { TOKEN_ENV, type TokenSource } from "./mcp-cli-args.ts";
import { startMcpCore, type McpCoreOptions, type McpSession } from "./mcp-core.ts";
import { MAX_MESSAGE_BYTES, tooLarge } from "./message-limit.ts";

export interface McpHttpOptions extends McpCoreOptions {
  readonly host: string;
  readonly port: number;
  readonly token: TokenSource;
}

export interface McpHttpServer extends McpSession {
  readonly url: string;
}

/** Events kept per session for clients that resume with Last-Event-ID. */
const EVENTS_PER_SESSION = 1_000;
/** A session with nothing open for this long is closed; its tasks are the server's and keep running. */
const SESSION_IDLE_MS = 15 * 60_000;
const SWEEP_MS = 60_000;
/** What a client waits before it reconnects a closed SSE stream. */
const SSE_RETRY_MS = 1_000;

/**
 * The MCP tools over Streamable HTTP at `/mcp`. Tasks belong to the server, not to a connection: any client
 * lists, waits on, reads and kills what another one started, and completion notices go to every open session.
 * Host and Origin are checked on every request (DNS rebinding), then the bearer token.
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<Result<McpHttpServer, TypedError>> {
  const token = await resolveToken(options);
  if (!token.ok) return token;
  const started = await startMcpCore(options);
  if (!started.ok) return started;
  const core = started.value;
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; protocolVersion: string }>();
  let policy = guardPolicy(options.host, options.port, token.value.secret);
  const activity = new SessionActivity(Date.now);
  const forget = (sessionId: string) => {
    sessions.delete(sessionId);
    activity.forget(sessionId);
  };
  // Clients that never close their session (one-shot calls) would otherwise keep it, and its events, forever.
  const sweeper = setInterval(() => {
    for (const id of activity.idleFor(SESSION_IDLE_MS)) {
      options.log(`closing MCP session ${id}: idle for ${SESSION_IDLE_MS / 60_000} min (its tasks keep running)`);
      void sessions.get(id)?.transport.close();
      forget(id);
    }
  }, SWEEP_MS);
  sweeper.unref();
  const http = createServer((req, res) => {
    void handle(req, res).catch((cause: unknown) => {
      options.log(`HTTP request failed: ${cause instanceof Error ? cause.message : String(cause)}`);
      if (!res.headersSent) reply(res, 500, "internal error; nothing was done");
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? "/", "http://host").pathname !== "/mcp")
      return reply(res, 404, "not found: the endpoint is /mcp");
    const refusal = refusalOf(req.headers, policy);
    if (refusal !== undefined) {
      if (refusal.status === 401) res.setHeader("WWW-Authenticate", 'Bearer realm="pi-background-tasks"');
      return reply(res, refusal.status, refusal.message);
    }
    const body = req.method === "POST" ? await readBody(req) : { ok: true as const, value: undefined };
    if (!body.ok) return reply(res, body.error.status, body.error.message, body.error.json);
    const id = req.headers["mcp-session-id"];
    const session = typeof id === "string" ? sessions.get(id) : undefined;
    if (session !== undefined) {
      pinProtocolVersion(req, session.protocolVersion);
      res.once("close", activity.begin(id as string));
      return session.transport.handleRequest(req, res, body.value);
    }
    if (id !== undefined) return reply(res, 404, "session not found: initialize a new one");
    if (req.method !== "POST" || !isInitializeRequest(body.value))
      return reply(res, 400, "no Mcp-Session-Id: the first request must be initialize");
    const initialize = body.value;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      eventStore: new BoundedEventStore(EVENTS_PER_SESSION),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, protocolVersion: initialize.params.protocolVersion });
        res.once("close", activity.begin(sessionId));
      },
      onsessionclosed: (sessionId) => forget(sessionId),
    });
    const server = core.connection(() => {
      if (transport.sessionId !== undefined) forget(transport.sessionId);
    });
    server.onerror = (error) => options.log(`MCP session error: ${error.message}`);
    await server.connect(transport);
    await transport.handleRequest(req, res, initialize);
  }

  const listening = await listen(http, options.host, options.port);
  if (!listening.ok) {
    await core.shutdown("the HTTP port could not be opened");
    return listening;
  }
  policy = guardPolicy(options.host, listening.value, token.value.secret);
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${listening.value}/mcp`;
  options.log(`listening on ${url}`);
  options.log(
    token.value.secret === undefined
      ? "no authentication (--no-auth): any local process can use this server"
      : `bearer token required; ${token.value.describe}`,
  );
  options.log(`task files under ${core.displayDir}`);

  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let closing: Promise<void> | undefined;
  const close = (reason: string): Promise<void> => {
    closing ??= (async () => {
      clearInterval(sweeper);
      http.close();
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
      http.closeAllConnections();
      await core.shutdown(reason);
      token.value.cleanup();
      markClosed();
    })();
    return closing;
  };
  return ok({ runtime: core.runtime, close, closed, url });
}

interface ResolvedToken {
  readonly secret: string | undefined;
  readonly describe: string;
  readonly cleanup: () => void;
}

async function resolveToken(options: McpHttpOptions): Promise<Result<ResolvedToken, TypedError>> {
  const source = options.token;
  const none = () => undefined;
  if (source.kind === "none") return ok({ secret: undefined, describe: "", cleanup: none });
  if (source.kind === "env")
    return ok({ secret: options.env[TOKEN_ENV], describe: `from ${TOKEN_ENV}`, cleanup: none });
  if (source.kind === "file") {
    let text: string;
    try {
      text = readFileSync(source.path, "utf8").trim();
    } catch (cause) {
      return err({ code: "token_unreadable", message: `--token-file ${source.path} cannot be read: ${String(cause)}` });
    }
    if (text === "" || /\s/.test(text))
      return err({ code: "token_invalid", message: `--token-file ${source.path} must hold one token, no spaces` });
    return ok({ secret: text, describe: `from ${source.path}`, cleanup: none });
  }
  const dir = `${options.cwd}/.pi/tasks/mcp-${options.pid}`;
  const path = `${dir}/http-token`;
  const secret = randomBytes(32).toString("base64url");
  // The area's .gitignore comes with the directory: a token must never show up in `git status`.
  const area = await ensureArtifactDir(new NodeFileCommitter(), dir);
  if (!area.ok)
    return err({
      code: "token_unwritable",
      message: `the token directory ${dir} cannot be made: ${area.error.message}`,
    });
  try {
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: "wx" });
  } catch (cause) {
    return err({ code: "token_unwritable", message: `the token file ${path} cannot be written: ${String(cause)}` });
  }
  return ok({ secret, describe: `token file (0600): ${path}`, cleanup: () => rmSync(path, { force: true }) });
}

function listen(
  http: ReturnType<typeof createServer>,
  host: string,
  port: number,
): Promise<Result<number, TypedError>> {
  return new Promise((resolve) => {
    http.once("error", (error: Error) =>
      resolve(err({ code: "listen_failed", message: `cannot listen on ${host}:${port}: ${error.message}` })),
    );
    http.listen(port, host, () => resolve(ok((http.address() as AddressInfo).port)));
  });
}

type BodyError = { readonly status: 400 | 413; readonly message: string; readonly json?: unknown };

async function readBody(req: IncomingMessage): Promise<Result<unknown, BodyError>> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_MESSAGE_BYTES) {
      req.resume();
      return err({ status: 413, message: "too large", json: tooLarge(null, bytes) });
    }
    chunks.push(chunk);
  }
  try {
    return ok(JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown);
  } catch {
    return err({ status: 400, message: "the body is not JSON" });
  }
}

/**
 * The session's negotiated protocol version is the one its requests run under. The SDK turns resumable SSE
 * (a priming event, stream closing for polling) on or off by each request's header, and a client that sends
 * an older version there than it negotiated would silently lose them.
 */
function pinProtocolVersion(req: IncomingMessage, negotiated: string): void {
  if (req.headers["mcp-protocol-version"] === undefined) return;
  req.headers["mcp-protocol-version"] = negotiated;
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i]?.toLowerCase() === "mcp-protocol-version") req.rawHeaders[i + 1] = negotiated;
}

function reply(res: ServerResponse, status: number, message: string, json?: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(json ?? { jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

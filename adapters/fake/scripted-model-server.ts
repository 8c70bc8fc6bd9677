import { appendFileSync, mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { dirname } from "node:path";
import { toChatRequestBody } from "./chat-request.ts";
import type { ChatRequestBody } from "./chat-request.ts";
import { completionJson, errorJson, resolveCompletion, streamChunks } from "./scripted-completion.ts";
import { parseScriptedReplies, parseScriptedReply } from "./scripted-reply.ts";
import type { ScriptedReply } from "./scripted-reply.ts";
import { clientExpectationFromEnv, clientMismatch, type ClientExpectation } from "./expected-client.ts";
import { chooseReply, responderInput } from "./scripted-reply-choice.ts";
import { listen, pause, readJson, sendJson } from "./scripted-http.ts";
import type { ReplySource, ScriptedResponder } from "./scripted-reply-choice.ts";

export type { ScriptedReply, ScriptedToolCall, ScriptedUsage, ScriptedHttpError } from "./scripted-reply.ts";
export type { ReplySource, ResponderInput, ScriptedResponder } from "./scripted-reply-choice.ts";
export type { ChatMessage, ChatRequestBody } from "./chat-request.ts";

export interface ScriptedModelServerOptions {
  /** Default 0: an ephemeral port. The server always binds 127.0.0.1. */
  readonly port?: number;
  /** Every request is also appended here as one JSON line (the directory is created). */
  readonly logPath?: string;
  /** Pause between streamed chunks when a reply does not set `chunkDelayMs`. Default 0. */
  readonly defaultChunkDelayMs?: number;
  /** Refuse model calls from any Pi or Node but the lane's (default: PI_BG_TEST_EXPECT_CLIENT; null: accept any). */
  readonly expectClient?: ClientExpectation | null;
}

export type RequestOutcome = "pending" | "completed" | "http_error" | "dropped" | "client_aborted";

/** One chat-completions request as received, and what the server chose to answer. */
export interface RecordedRequest {
  readonly index: number;
  readonly receivedAtMs: number;
  readonly path: string;
  readonly model: string;
  readonly stream: boolean;
  readonly body: ChatRequestBody;
  readonly lastUserText: string | undefined;
  readonly source: ReplySource | "invalid_request";
  readonly reply: ScriptedReply;
  /** Updated in place when the response ends (the JSONL log keeps the value at receipt). */
  outcome: RequestOutcome;
}

export interface ScriptedModelServer {
  /** `http://127.0.0.1:<port>/v1`, the `baseUrl` of an `openai-completions` provider. */
  readonly baseUrl: string;
  readonly port: number;
  /** Live, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** Replies served FIFO before any responder or directive. Throws on a malformed reply (a test bug). */
  enqueue(...replies: ScriptedReply[]): void;
  /** Number of queued replies not yet served. */
  queued(): number;
  setResponder(responder: ScriptedResponder | undefined): void;
  /** Drops queued replies and recorded requests (the responder stays). */
  reset(): void;
  /** Resolves with the first `count` requests once that many arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

interface Waiter {
  readonly count: number;
  readonly resolve: (requests: RecordedRequest[]) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export async function startScriptedModelServer(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<Waiter>();
  const inFlight = new Set<AbortController>();
  let responder: ScriptedResponder | undefined;
  let nextIndex = 0;
  const expectClient = options.expectClient === undefined ? clientExpectationFromEnv() : options.expectClient;
  const foreignClients: string[] = [];
  if (options.logPath !== undefined) mkdirSync(dirname(options.logPath), { recursive: true });

  const record = (entry: RecordedRequest): void => {
    requests.push(entry);
    if (options.logPath !== undefined) appendFileSync(options.logPath, `${JSON.stringify(entry)}\n`);
    for (const waiter of waiters) {
      if (requests.length >= waiter.count) settle(waiter, () => waiter.resolve(requests.slice(0, waiter.count)));
    }
  };
  const settle = (waiter: Waiter, action: () => void): void => {
    clearTimeout(waiter.timer);
    waiters.delete(waiter);
    action();
  };
  const enqueue = (...replies: ScriptedReply[]): void => {
    for (const reply of replies) {
      const checked = parseScriptedReply(reply);
      if (!checked.ok) throw new Error(checked.error.message);
    }
    queue.push(...replies);
  };
  const reset = (): void => {
    queue.length = 0;
    requests.length = 0;
    nextIndex = 0;
  };

  const handleCompletion = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const abort = new AbortController();
    inFlight.add(abort);
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
      inFlight.delete(abort);
    });
    const foreign =
      expectClient === null || expectClient === undefined ? undefined : clientMismatch(req.headers, expectClient);
    if (foreign !== undefined) {
      foreignClients.push(foreign);
      req.resume();
      sendJson(res, 400, errorJson(400, `scripted server: ${foreign}`));
      return;
    }
    const receivedAtMs = Date.now();
    const index = nextIndex++;
    const raw = await readJson(req);
    const body = raw.ok ? toChatRequestBody(raw.value) : undefined;
    if (body === undefined) {
      const message = raw.ok ? "request body must be a JSON object" : raw.error;
      const reply: ScriptedReply = { httpError: { status: 400, body: errorJson(400, message) } };
      const entry: RecordedRequest = {
        index,
        receivedAtMs,
        path,
        model: "unknown-model",
        stream: false,
        body: {},
        lastUserText: undefined,
        source: "invalid_request",
        reply,
        outcome: "pending",
      };
      record(entry);
      sendJson(res, 400, errorJson(400, message));
      entry.outcome = abort.signal.aborted ? "client_aborted" : "http_error";
      return;
    }
    const input = responderInput(index, body);
    const chosen = await chooseReply(input, () => queue.shift(), responder);
    const stream = body.stream === true;
    const entry: RecordedRequest = {
      index,
      receivedAtMs,
      path,
      model: input.model,
      stream,
      body,
      lastUserText: input.lastUserText,
      source: chosen.source,
      reply: chosen.reply,
      outcome: "pending",
    };
    record(entry);
    const reply = chosen.reply;
    if (!(await pause(reply.delayMs ?? 0, abort.signal))) {
      entry.outcome = "client_aborted";
      return;
    }
    if (reply.dropConnection === true) {
      req.socket.destroy();
      entry.outcome = "dropped";
      return;
    }
    if (reply.httpError !== undefined) {
      const { status, body, headers } = reply.httpError;
      sendJson(res, status, body ?? errorJson(status, `scripted error ${status}`), headers);
      entry.outcome = "http_error";
      return;
    }
    const completion = resolveCompletion(reply, {
      requestIndex: index,
      model: input.model,
      createdSeconds: Math.floor(receivedAtMs / 1000),
      promptChars: JSON.stringify(body.messages ?? []).length,
    });
    if (!stream) {
      sendJson(res, 200, completionJson(completion));
      entry.outcome = "completed";
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const chunkDelay = reply.chunkDelayMs ?? options.defaultChunkDelayMs ?? 0;
    const chunks = streamChunks(completion, body.stream_options?.include_usage === true);
    for (const [i, chunk] of chunks.entries()) {
      if (abort.signal.aborted) break;
      res.write(`data: ${chunk}\n\n`);
      if (i < chunks.length - 1 && !(await pause(chunkDelay, abort.signal))) break;
    }
    if (abort.signal.aborted) {
      entry.outcome = "client_aborted";
      return;
    }
    res.end();
    entry.outcome = "completed";
  };

  const handleControl = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (req.method === "POST" && path === "/__enqueue") {
      const raw = await readJson(req);
      const replies = raw.ok ? parseScriptedReplies(raw.value) : undefined;
      if (replies === undefined || !replies.ok) {
        sendJson(
          res,
          400,
          errorJson(400, replies === undefined ? (raw.ok ? "bad body" : raw.error) : replies.error.message),
        );
      } else {
        queue.push(...replies.value);
        sendJson(res, 200, { queued: queue.length, added: replies.value.length });
      }
      return true;
    }
    if (req.method === "GET" && path === "/__requests") {
      sendJson(res, 200, requests);
      return true;
    }
    if (req.method === "POST" && path === "/__reset") {
      req.resume();
      reset();
      sendJson(res, 200, { reset: true });
      return true;
    }
    return false;
  };

  const server = createServer((req, res) => {
    // A client killed mid-request (e.g. a pi child) is expected: it only ends that exchange.
    req.on("error", () => undefined);
    res.on("error", () => undefined);
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const work = async (): Promise<void> => {
      if (await handleControl(req, res, path)) return;
      if (req.method === "POST" && path.endsWith("/chat/completions")) return handleCompletion(req, res, path);
      req.resume();
      sendJson(res, 404, errorJson(404, `no route for ${req.method ?? "?"} ${path}`));
    };
    work().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorJson(500, `scripted server bug: ${String(error)}`));
      else res.destroy();
    });
  });
  const port = await listen(server, options.port ?? 0);

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    enqueue,
    queued: () => queue.length,
    setResponder: (fn) => {
      responder = fn;
    },
    reset,
    waitForRequests: (count, timeoutMs) =>
      new Promise((resolve, reject) => {
        if (requests.length >= count) return resolve(requests.slice(0, count));
        const timer = setTimeout(() => {
          settle(waiter, () =>
            reject(new Error(`waited ${timeoutMs} ms for ${count} model request(s), saw ${requests.length}`)),
          );
        }, timeoutMs);
        const waiter: Waiter = { count, resolve, reject, timer };
        waiters.add(waiter);
      }),
    close: async () => {
      for (const waiter of [...waiters]) settle(waiter, () => waiter.reject(new Error("scripted model server closed")));
      for (const abort of inFlight) abort.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (foreignClients.length > 0)
        throw new Error(
          `the scripted model server refused ${foreignClients.length} call(s) from outside this test lane: ${foreignClients[0]}`,
        );
    },
  };
}

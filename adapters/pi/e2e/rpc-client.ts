import { JsonlSplitter } from "./jsonl-lines.ts";
import type { PiRecord } from "./jsonl-lines.ts";
import { childClosed, reapPi, spawnPi } from "./pi-process.ts";
import type { ChildExit, ReapedPi } from "./pi-process.ts";

export type { PiRecord } from "./jsonl-lines.ts";
export type { ChildExit, ReapedPi } from "./pi-process.ts";

/** An RPC command (rpc.md); `id` is added when missing. */
export interface RpcCommand {
  readonly type: string;
  readonly id?: string;
  readonly [key: string]: unknown;
}

export interface RpcResponse extends PiRecord {
  readonly type: "response";
  readonly id?: string;
  readonly command: string;
  readonly success: boolean;
  readonly data?: unknown;
  readonly error?: string;
}

/** The answer to a dialog `extension_ui_request` (select/confirm/input/editor). */
export type UiAnswer = { readonly value: string } | { readonly confirmed: boolean } | { readonly cancelled: true };
/** Returning undefined cancels the dialog. */
export type UiRequestHandler = (request: PiRecord) => UiAnswer | undefined | Promise<UiAnswer | undefined>;

export interface StartPiRpcOptions {
  /** Extra pi arguments after `--mode rpc` (e.g. `--no-session`, `-e <path>`). */
  readonly args?: readonly string[];
  /** Merged over this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Without a handler every dialog is answered `{cancelled: true}` so pi never blocks. */
  readonly onUiRequest?: UiRequestHandler;
}

export interface PiRpcClient {
  readonly pid: number;
  /** Every stdout record except `response`s, in order (includes `extension_ui_request`s). */
  readonly events: readonly PiRecord[];
  readonly responses: readonly RpcResponse[];
  /** Stdout lines that were not JSON records. */
  readonly noise: readonly string[];
  stderr(): string;
  /** Writes one command line; returns its id. */
  send(command: RpcCommand): string;
  /** Sends and resolves with the matching `response` (also when `success` is false). */
  request(command: RpcCommand, timeoutMs?: number): Promise<RpcResponse>;
  /** First event at index ≥ `fromIndex` (default 0, so past events count) matching `predicate`. */
  waitFor(predicate: (event: PiRecord) => boolean, timeoutMs: number, fromIndex?: number): Promise<PiRecord>;
  /** Sends a prompt and resolves with the events from the prompt to the `agent_end` that follows it. */
  promptAndWait(message: string, timeoutMs: number): Promise<PiRecord[]>;
  readonly exited: Promise<ChildExit>;
  /** Ends stdin, waits up to `timeoutMs` (default 5 s) for exit, then kills the process group. */
  close(timeoutMs?: number): Promise<ReapedPi>;
}

const DIALOG_METHODS = new Set(["select", "confirm", "input", "editor"]);
const KILL_GRACE_MS = 2_000;

interface EventWaiter {
  readonly predicate: (event: PiRecord) => boolean;
  readonly fromIndex: number;
  readonly resolve: (event: PiRecord) => void;
  readonly reject: (error: Error) => void;
}

export function startPiRpc(options: StartPiRpcOptions): PiRpcClient {
  const child = spawnPi({
    args: ["--mode", "rpc", ...(options.args ?? [])],
    cwd: options.cwd,
    ...(options.env !== undefined ? { env: options.env } : {}),
  });
  const closed = childClosed(child);
  const pid = child.pid;
  if (pid === undefined) throw new Error("pi --mode rpc did not start (no pid)");
  const events: PiRecord[] = [];
  const responses: RpcResponse[] = [];
  const noise: string[] = [];
  const stderrParts: Buffer[] = [];
  const pendingResponses = new Map<string, { resolve: (r: RpcResponse) => void; reject: (e: Error) => void }>();
  const eventWaiters = new Set<EventWaiter>();
  let exitedWith: ChildExit | undefined;
  let nextId = 1;

  const stderr = (): string => Buffer.concat(stderrParts).toString("utf8");
  const deadError = (what: string): Error =>
    new Error(
      `${what}: pi --mode rpc exited (code ${String(exitedWith?.code)}, signal ${String(exitedWith?.signal)}); stderr tail: ${stderr().slice(-2000)}`,
    );
  const write = (value: unknown): void => {
    if (!child.stdin.writable) return;
    child.stdin.write(`${JSON.stringify(value)}\n`);
  };

  const answerUi = async (request: PiRecord): Promise<void> => {
    const answer = options.onUiRequest === undefined ? undefined : await options.onUiRequest(request);
    write({ type: "extension_ui_response", id: request.id, ...(answer ?? { cancelled: true }) });
  };
  const onRecord = (record: PiRecord): void => {
    if (record.type === "response") {
      const response = record as RpcResponse;
      responses.push(response);
      const pending = typeof response.id === "string" ? pendingResponses.get(response.id) : undefined;
      if (pending !== undefined && typeof response.id === "string") {
        pendingResponses.delete(response.id);
        pending.resolve(response);
      }
      return;
    }
    events.push(record);
    if (
      record.type === "extension_ui_request" &&
      typeof record.method === "string" &&
      DIALOG_METHODS.has(record.method)
    ) {
      answerUi(record).catch((error: unknown) => {
        noise.push(`ui handler failed: ${String(error)}`);
        write({ type: "extension_ui_response", id: record.id, cancelled: true });
      });
    }
    for (const waiter of eventWaiters) {
      if (events.length - 1 >= waiter.fromIndex && waiter.predicate(record)) {
        eventWaiters.delete(waiter);
        waiter.resolve(record);
      }
    }
  };
  const splitter = new JsonlSplitter(onRecord, (line) => noise.push(line));
  child.stdout.on("data", (chunk: Buffer) => splitter.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderrParts.push(chunk));
  child.stdin.on("error", () => undefined); // writes after pi died are reported through `exited`

  const exited = closed.then((exit) => {
    exitedWith = exit;
    splitter.end();
    for (const [, pending] of pendingResponses) pending.reject(deadError("no response"));
    pendingResponses.clear();
    for (const waiter of eventWaiters) waiter.reject(deadError("event never came"));
    eventWaiters.clear();
    return exit;
  });
  exited.catch(() => undefined);

  const send = (command: RpcCommand): string => {
    const id = command.id ?? `rpc-${nextId++}`;
    write({ ...command, id });
    return id;
  };

  const request = (command: RpcCommand, timeoutMs = 10_000): Promise<RpcResponse> => {
    if (exitedWith !== undefined) return Promise.reject(deadError(`cannot send ${command.type}`));
    const id = command.id ?? `rpc-${nextId++}`;
    return withTimeout(
      new Promise<RpcResponse>((resolve, reject) => {
        pendingResponses.set(id, { resolve, reject });
        write({ ...command, id });
      }),
      timeoutMs,
      () => {
        pendingResponses.delete(id);
        return new Error(
          `no response to ${command.type} (${id}) within ${timeoutMs} ms; stderr tail: ${stderr().slice(-2000)}`,
        );
      },
    );
  };

  const waitFor = (predicate: (event: PiRecord) => boolean, timeoutMs: number, fromIndex = 0): Promise<PiRecord> => {
    const past = events.slice(fromIndex).find(predicate);
    if (past !== undefined) return Promise.resolve(past);
    if (exitedWith !== undefined) return Promise.reject(deadError("event never came"));
    let waiter: EventWaiter | undefined;
    return withTimeout(
      new Promise<PiRecord>((resolve, reject) => {
        waiter = { predicate, fromIndex, resolve, reject };
        eventWaiters.add(waiter);
      }),
      timeoutMs,
      () => {
        if (waiter !== undefined) eventWaiters.delete(waiter);
        const seen = events
          .slice(fromIndex)
          .map((e) => e.type)
          .join(", ");
        return new Error(`event not seen within ${timeoutMs} ms; events since ${fromIndex}: [${seen}]`);
      },
    );
  };

  const promptAndWait = async (message: string, timeoutMs: number): Promise<PiRecord[]> => {
    const mark = events.length;
    const response = await request({ type: "prompt", message }, timeoutMs);
    if (!response.success) throw new Error(`prompt rejected: ${response.error ?? "no error text"}`);
    const end = await waitFor((event) => event.type === "agent_end", timeoutMs, mark);
    return events.slice(mark, events.indexOf(end) + 1);
  };

  return {
    pid,
    events,
    responses,
    noise,
    stderr,
    send,
    request,
    waitFor,
    promptAndWait,
    exited,
    close: async (timeoutMs = 5_000) => {
      child.stdin.end();
      return reapPi(child, exited, timeoutMs, KILL_GRACE_MS);
    },
  };
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

import type { ProcessExit, RunningProcess } from "../ports/process-launcher.ts";

/** Reading a started process as every consumer must: both streams at once, to their end. */
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

export interface Run {
  readonly stdout: Promise<Uint8Array>;
  /** Stdout so far. */
  readonly seen: () => Uint8Array;
  readonly exit: Promise<ProcessExit>;
  readonly ready: Promise<void>;
}

/** Drains both streams at once (as every consumer must) and notices the "ready" line. */
export function collect(proc: RunningProcess): Run {
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let soFar: Uint8Array = new Uint8Array(0);
  const stdout = drain(proc.stdout, (seen) => {
    soFar = seen;
    if (text(seen).includes("ready\n")) markReady();
  });
  const stderr = drain(proc.stderr);
  const exit = Promise.all([stdout, stderr, proc.exited]).then(([, , exited]) => exited);
  return { stdout, seen: () => soFar, exit, ready };
}

/** Stdout up to now, once "ready" was seen. */
export async function peek(run: Run): Promise<Uint8Array> {
  await run.ready;
  return run.seen();
}

export async function startedRun(proc: RunningProcess): Promise<Run> {
  const run = collect(proc);
  const early = run.exit.then((exit) => {
    throw new Error(`process ended before it was ready: ${JSON.stringify(exit)}`);
  });
  await Promise.race([run.ready, early]);
  return run;
}

export async function drain(
  stream: AsyncIterable<Uint8Array>,
  onChunk?: (soFar: Uint8Array) => void,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk);
    onChunk?.(concat(chunks));
  }
  return concat(chunks);
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Runs a launched task to its end and releases it: its stdout as text. */
export async function outputToEnd(proc: RunningProcess): Promise<string> {
  const [stdout] = await Promise.all([drain(proc.stdout), proc.exited]);
  await proc.release?.();
  return Buffer.from(stdout).toString();
}

// One task under the shared task supervisor (task-supervisor.mjs): plain Node ESM, no TypeScript at run time.
//
// The command runs as the leader of its own process group, with exactly the environment the host sent (the
// process tag included). Its stdout and stderr are relayed to the host through `link` (the task's connection),
// or written into the task's output file by the link while the host is connected (task-link.mjs); the link's
// back-pressure pauses the command's pipes, so a slow host slows a chatty command down.
//
// When the host is gone (it died, or let go of the task to survive a reload) the link is closed. The command
// keeps running: later output is appended to the spill file, up to its cap; bytes beyond that are counted,
// never stored. When the host dies, bytes already sent into its connection are lost unseen; when it lets go
// ("detach"), it reads up to the supervisor's answer, so nothing falls between.
//
// A task is its whole tree: when the command exits while processes of the task still run (group members, or
// processes carrying the tag that left the group), their output is relayed on and, with `stop`, they get
// `graceMs` to end, then the rest is stopped (SIGTERM, SIGKILL after `killGraceMs`); with `wait` they are
// waited for. The command's end and what still runs are reported at once. Only when nothing of the tree is
// left (and the pipes have closed, or 2 s of unhindered relay later if a process that cleared its tag holds them) is the exit
// status committed to the exit record, and then reported. The record file is created empty before the command
// starts (a file already there refuses the launch) and written in place at the end: see reserveRecord.

import { spawn } from "node:child_process";
import { closeSync, constants as fsConstants, fsyncSync, openSync, writeSync } from "node:fs";
import { reserveRecord } from "./durable-commit.mjs";
import { startTicksOf, watchTree } from "./task-supervisor-tree.mjs";

const SCHEMA = "pi-background-tasks.exit.v1";
const DRAIN_MS = 2_000;

/**
 * Starts `request.file` and supervises it to its end. `link` is { output(fd, chunk) → false once the host is
 * gone, report(event), pauseWhile(streams), holdingBack() → true while the host's back-pressure pauses them,
 * ending() → the end is being committed }. Resolves with the pid, or rejects with why it could not start;
 * `onEnd` is called once the exit record is committed (or could not be).
 */
export function startTask(request, link, onEnd) {
  return new Promise((resolve, reject) => {
    let record;
    try {
      record = reserveRecord(request.exitPath);
    } catch (error) {
      reject(new Error(`the exit record ${request.exitPath} cannot be created: ${error.message}`));
      return;
    }
    let child;
    try {
      child = spawn(request.file, request.args, {
        cwd: request.cwd,
        env: request.env,
        detached: true,
        stdio: [request.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
    } catch (error) {
      record.abandon();
      reject(error); // thrown, not emitted: E2BIG, a cwd that stopped being a directory, ENOMEM, …
      return;
    }
    if (child.pid === undefined) {
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
      record.abandon();
      child.once("error", (error) => reject(error));
      return;
    }
    child.on("error", () => undefined); // after a start, errors are signalling races: the exit says what happened
    resolve(child.pid);
    supervise(child, request, record, link, onEnd);
  });
}

function supervise(child, request, exitRecord, link, onEnd) {
  const { exitPath, spillPath, spillCapBytes, tag, afterShellExit, killGraceMs } = request;
  const notBefore = startTicksOf(child.pid);
  const relay = { hostGone: false, spillFd: -1, spillBroken: false, spilledBytes: 0, lostOutputBytes: 0 };
  let shell;
  let tree;
  let pipesClosed = false;
  let finished = false;

  if (request.stdin !== undefined) {
    child.stdin.on("error", () => undefined); // the command may exit without reading it: its exit says so
    child.stdin.end(Buffer.from(request.stdin, "base64"));
  }
  child.stdout.on("data", (chunk) => deliver(1, chunk));
  child.stderr.on("data", (chunk) => deliver(2, chunk));
  link.pauseWhile([child.stdout, child.stderr]);
  child.on("exit", (code, signal) => {
    shell = { code, signal };
    link.report({ event: "reaped" }); // the pid is free from now on: the host must not signal it alone any more
    const watching = watchTree({
      pgid: child.pid,
      notBefore,
      shellCommand: [request.file, ...request.args].join(" "),
      tag,
      afterShellExit,
      killGraceMs,
      onRemaining: (remaining) => link.report({ event: "shell_exited", code, signal, remaining }),
    });
    void watching.then((story) => {
      tree = story;
      if (pipesClosed) void finish();
      else awaitPipes();
    });
  });
  child.on("close", () => {
    pipesClosed = true;
    if (tree !== undefined) void finish();
  });

  /**
   * Pipes still open after the tree has ended: a process that cleared its tag holds them, and the record must
   * not wait for it forever. The grace counts only while output can flow: a host that is slow to read is waited for.
   */
  function awaitPipes() {
    setTimeout(() => (link.holdingBack() ? awaitPipes() : void finish()), DRAIN_MS);
  }

  /** Relays (or writes) one chunk for the host, or once the host is gone, to the spill file. */
  function deliver(fd, chunk) {
    if (!relay.hostGone && link.output(fd, chunk)) return;
    relay.hostGone = true;
    spill(chunk);
  }

  function spill(chunk) {
    const room = relay.spillBroken ? 0 : Math.max(0, spillCapBytes - relay.spilledBytes);
    const keep = Math.min(room, chunk.length);
    relay.lostOutputBytes += chunk.length - keep;
    if (keep === 0) return;
    try {
      if (relay.spillFd < 0)
        // Exclusive: the spill file is the supervisor's own; a file planted there is never written through.
        relay.spillFd = openSync(spillPath, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o600);
      writeAll(relay.spillFd, chunk.subarray(0, keep));
      relay.spilledBytes += keep;
    } catch {
      // Disk full or unwritable: what could not be stored is counted as lost, never claimed as kept.
      relay.lostOutputBytes += keep;
      relay.spillBroken = true;
    }
  }

  async function finish() {
    if (finished) return;
    finished = true;
    link.ending();
    // What a holder of the pipes wrote that was never read is counted, never claimed as kept.
    relay.lostOutputBytes += child.stdout.readableLength + child.stderr.readableLength;
    child.stdout.destroy();
    child.stderr.destroy();
    const problems = [];
    if (relay.spillFd >= 0) {
      try {
        fsyncSync(relay.spillFd);
      } catch (error) {
        problems.push(`the spill file ${spillPath} could not be flushed: ${error.message}`);
      } finally {
        closeSync(relay.spillFd);
      }
    }
    const ending = {
      schema_version: SCHEMA,
      code: shell.code,
      signal: shell.signal,
      endedAt: Date.now(),
      hostGone: relay.hostGone,
      spilledBytes: relay.spilledBytes,
      lostOutputBytes: relay.lostOutputBytes,
      ...(tree.descendants > 0 ? { tree } : {}),
    };
    try {
      await exitRecord.commit(`${JSON.stringify(ending)}\n`);
    } catch (error) {
      problems.push(`the exit status could not be recorded in ${exitPath}: ${error.message}`);
    }
    link.report({ event: "exit", code: shell.code, signal: shell.signal, stopped: tree.stopped, problems });
    onEnd();
  }
}

export function writeAll(fd, chunk) {
  for (let offset = 0; offset < chunk.length; ) {
    try {
      offset += writeSync(fd, chunk, offset, chunk.length - offset);
    } catch (error) {
      if (error?.code !== "EAGAIN") throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

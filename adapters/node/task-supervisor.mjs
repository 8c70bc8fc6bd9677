// The supervisor of one background task: plain Node ESM, no TypeScript at run time.
//
//   node task-supervisor.mjs <options JSON> <file> [args…]
//
// options: { exitPath, spillPath, spillCapBytes, tag, afterShellExit: {remaining:"stop",graceMs} | {remaining:"wait"},
//            killGraceMs, reports }
//
// It leads the task's process group and runs <file> in the same group with the same environment (the
// process tag included). The command's stdout and stderr are relayed unchanged to the supervisor's own
// stdout and stderr, the pipes the Pi host reads; a blocking write passes the host's back-pressure on.
//
// When the host dies (SIGKILL, crash, or it let go of the task to survive a reload) those pipes break
// (EPIPE). The command keeps running: later output is appended to <spillPath>, up to <spillCapBytes>;
// bytes beyond that are counted, never stored. The bytes already in the broken pipe are lost unseen.
//
// A task is its whole tree: when the command exits while processes of the task still run (group members,
// or processes carrying <tag> that left the group), the supervisor goes on relaying their output and, with
// `stop`, gives them `graceMs` to end, then stops the rest (SIGTERM, SIGKILL after `killGraceMs`); with
// `wait` it waits for them. With `reports`, the command's end and what still runs are reported at once as
// one JSON line on fd 3 (a pipe of the host's that the command never sees). Only when nothing of the tree
// is left (and the pipes have closed, or 2 s later if a process that cleared its tag holds them) is the exit
// status committed to <exitPath> (temp file, fsync, rename, directory fsync), with what the tree did, and
// the supervisor exits the way the command did: the same code, or the same signal raised again.
//
// Every stop this package sends goes to the whole process group, so the supervisor ignores SIGTERM,
// SIGINT, SIGHUP and SIGQUIT: the command receives them itself and the supervisor outlives it to
// record how it ended. SIGKILL to the group ends both, and then no exit record is written.

import { spawn } from "node:child_process";
import { closeSync, constants as fsConstants, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { dirname } from "node:path";
import { watchTree } from "./task-supervisor-tree.mjs";

const SCHEMA = "pi-background-tasks.exit.v1";
const DRAIN_MS = 2_000;
const USAGE_EXIT = 125;
const IGNORED_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"];

const [optionsText, file, ...args] = process.argv.slice(2);
const options = parseOptions(optionsText);
if (options === undefined || !file) {
  say("usage: task-supervisor.mjs <options JSON> <file> [args…]");
  process.exit(USAGE_EXIT);
}
const { exitPath, spillPath, spillCapBytes: spillCap, tag, afterShellExit, killGraceMs } = options;

for (const signal of IGNORED_SIGNALS) process.on(signal, () => undefined);

const relay = { hostGone: false, spillFd: -1, spillBroken: false, spilledBytes: 0, lostOutputBytes: 0 };
let finished = false;
/** How the command ended, once it has; the tree's story once nothing of it is left. */
let shell;
let tree;
let pipesClosed = false;

// The host moved NODE_OPTIONS aside so that they apply to the command, not to this script.
const env = { ...process.env };
if (env.PI_BG_SUPERVISED_NODE_OPTIONS !== undefined) {
  env.NODE_OPTIONS = env.PI_BG_SUPERVISED_NODE_OPTIONS;
  delete env.PI_BG_SUPERVISED_NODE_OPTIONS;
}
const child = spawn(file, args, { stdio: ["inherit", "pipe", "pipe"], env });
child.stdout.on("data", (chunk) => deliver(1, chunk));
child.stderr.on("data", (chunk) => deliver(2, chunk));
child.on("error", (error) => {
  // The command never started (no such program, …): reported like a shell would, with 127.
  deliver(2, Buffer.from(`task-supervisor: cannot start ${JSON.stringify(file)}: ${error.message}\n`));
  shell = { code: 127, signal: null };
  tree = { descendants: 0, stopped: [] };
  finish();
});
child.on("exit", (code, signal) => {
  shell = { code, signal };
  const watching = watchTree({
    shellCommand: [file, ...args].join(" "),
    tag,
    afterShellExit,
    killGraceMs,
    onRemaining: (remaining) => report({ event: "shell_exited", code, signal, remaining }),
  });
  void watching.then((story) => {
    tree = story;
    if (pipesClosed) finish();
    else setTimeout(finish, DRAIN_MS); // a holder that cleared its tag: the record must not wait for it forever
  });
});
child.on("close", () => {
  pipesClosed = true;
  if (tree !== undefined) finish();
});

/** Relays one chunk to the host, or once the host is gone, to the spill file. */
function deliver(fd, chunk) {
  if (!relay.hostGone) {
    try {
      writeAll(fd, chunk);
      return;
    } catch (error) {
      if (!isBrokenPipe(error)) throw error;
      relay.hostGone = true;
    }
  }
  spill(chunk);
}

function writeAll(fd, chunk) {
  for (let offset = 0; offset < chunk.length; ) {
    try {
      offset += writeSync(fd, chunk, offset, chunk.length - offset);
    } catch (error) {
      if (error?.code !== "EAGAIN") throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

function isBrokenPipe(error) {
  return ["EPIPE", "ECONNRESET", "EBADF", "ENOTCONN"].includes(error?.code);
}

function spill(chunk) {
  const room = relay.spillBroken ? 0 : Math.max(0, spillCap - relay.spilledBytes);
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

function finish() {
  if (finished) return;
  finished = true;
  const { code, signal } = shell;
  child.stdout.destroy();
  child.stderr.destroy();
  if (relay.spillFd >= 0) {
    try {
      fsyncSync(relay.spillFd);
      closeSync(relay.spillFd);
    } catch (error) {
      say(`task-supervisor: the spill file ${spillPath} could not be flushed: ${error.message}`);
    }
  }
  const record = {
    schema_version: SCHEMA,
    code,
    signal,
    endedAt: Date.now(),
    hostGone: relay.hostGone,
    spilledBytes: relay.spilledBytes,
    lostOutputBytes: relay.lostOutputBytes,
    ...(tree.descendants > 0 ? { tree } : {}),
  };
  if (tree.descendants > 0) report({ event: "tree_ended", descendants: tree.descendants, stopped: tree.stopped });
  try {
    commit(exitPath, `${JSON.stringify(record)}\n`);
  } catch (error) {
    say(`task-supervisor: the exit status could not be recorded in ${exitPath}: ${error.message}`);
  }
  exitLike(code, signal);
}

/** Temp file opened exclusively, write, fsync, rename, directory fsync: the rename is the commit. */
function commit(path, text) {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, "wx", 0o600);
  try {
    writeAll(fd, Buffer.from(text));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
  const dir = openSync(dirname(path), fsConstants.O_RDONLY | fsConstants.O_DIRECTORY);
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

function exitLike(code, signal) {
  if (signal === null) process.exit(code ?? 1);
  const number = osConstants.signals[signal] ?? 0;
  // Node keeps its own handlers for a few signals (SIGPIPE ignored, SIGUSR1 starts the inspector):
  // for those, and if the signal does not end us at once, exit with the shell's 128+n convention.
  if (signal !== "SIGPIPE" && signal !== "SIGUSR1") {
    process.removeAllListeners(signal);
    try {
      process.kill(process.pid, signal);
    } catch {
      // fall through to the exit code
    }
  }
  setTimeout(() => process.exit(128 + number), 200);
}

function parseOptions(text) {
  try {
    const o = JSON.parse(text);
    const after = o.afterShellExit;
    const policyOk =
      after?.remaining === "wait" ||
      (after?.remaining === "stop" && Number.isSafeInteger(after.graceMs) && after.graceMs >= 0);
    const ok =
      typeof o.exitPath === "string" &&
      typeof o.spillPath === "string" &&
      Number.isSafeInteger(o.spillCapBytes) &&
      o.spillCapBytes >= 0 &&
      typeof o.tag === "string" &&
      /^[0-9a-f]{32}$/.test(o.tag) &&
      policyOk &&
      Number.isSafeInteger(o.killGraceMs) &&
      o.killGraceMs >= 0;
    return ok ? o : undefined;
  } catch {
    return undefined;
  }
}

/** One JSON line on fd 3 for the host; nothing when it asked for none or is gone. */
function report(event) {
  if (options.reports !== true) return;
  try {
    writeAll(3, Buffer.from(`${JSON.stringify(event)}\n`));
  } catch {
    // the host is gone: the exit record is what remains
  }
}

function say(line) {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // stderr is gone with the host; the exit record is what remains
  }
}

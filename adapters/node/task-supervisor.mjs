// The task supervisor of one host (a Pi session or an MCP server): plain Node ESM, no TypeScript at run time.
//
//   node task-supervisor.mjs <socket path>
//
// One small process is the parent of every background task of its host (see supervised-task.mjs for what
// it does for each). It listens on a Unix socket in a directory only its user can enter, prints "ready" on
// stdout once it does, and then serves connections whose first line is a JSON request:
//   {"kind":"host"}                   the host's own connection: while it is open, the host is alive;
//   {"kind":"task", file, args, cwd, env, stdin?, exitPath, spillPath, spillCapBytes, output?, tag,
//    afterShellExit, killGraceMs}     starts a task; the connection then carries the task to its end.
// To the host it sends frames: one byte of type (0 a JSON event, 1 stdout, 2 stderr), four of length (big
// endian), the payload. Events: started {pid, output?}, spawn_failed {message} (also for a refused request),
// reaped (the command exited; its pid is free), shell_exited {code, signal, remaining}, exit {code, signal,
// stopped, problems, output?}, detached {output?} (the answer to the host's "detach\n": the last frame; later
// output is spilled). A command that cannot be spawned fails its own task only.
// With `output` ({path, capBytes, capAction}: the empty file the host created) the supervisor writes the output
// into that file itself while the host is connected (task-output-file.mjs) instead of sending output frames;
// `output: {produced, failure?}` in the events above, and in `output` events at most every 100 ms while bytes
// flow (at once when a kill cap is passed), says how far it got. The host's "hold\n" pauses the command's pipes
// between two writes and is answered by `held {output}`; "release\n" resumes them.
//
// It outlives its host: when the host is gone (its connection closed), tasks run on, their output goes to
// their spill files and their exit records are committed as usual. It exits once no host is connected and
// no task is left. It runs in a session of its own, so a terminal's Ctrl+C or a stop sent to a task's group
// never reaches it.

import { rmdirSync, unlinkSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";
import { startTask } from "./supervised-task.mjs";
import { taskLink } from "./task-link.mjs";
import { openOutputFile } from "./task-output-file.mjs";

const USAGE_EXIT = 125;
const MAX_REQUEST_BYTES = 4 << 20;
/** A host that spawned this process but never connected (it died at once) is not waited for longer. */
const FIRST_HOST_MS = 30_000;
const EVENT = 0;
/** The smallest output cap (MIN_OUTPUT_CAP of output-layout.ts): the layout needs room for head, marker and ring. */
const MIN_OUTPUT_CAP = 4096;

const socketPath = process.argv[2];
if (!socketPath) {
  process.stderr.write("usage: task-supervisor.mjs <socket path>\n");
  process.exit(USAGE_EXIT);
}

let hosts = 0;
let tasks = 0;
const server = createServer({ allowHalfOpen: false }, (socket) => {
  readRequest(socket, (request) => {
    if (request?.kind === "host") return serveHost(socket);
    const problem = request?.kind === "task" ? taskProblem(request) : "not a request";
    if (problem === undefined) return serveTask(socket, request);
    refuse(socket, problem);
  });
});
server.listen(socketPath, () => {
  process.stdout.write("ready\n");
  setTimeout(exitWhenIdle, FIRST_HOST_MS).unref();
});

function serveHost(socket) {
  hosts++;
  socket.on("error", () => undefined);
  socket.on("close", () => {
    hosts--;
    exitWhenIdle();
  });
  socket.resume(); // nothing more is read; the open connection is the message
}

function serveTask(socket, request) {
  let writer;
  try {
    writer = request.output === undefined ? undefined : openOutputFile(request.output);
  } catch (error) {
    return refuse(socket, `the output file ${request.output.path} cannot be written: ${error.message}`);
  }
  tasks++;
  const link = taskLink(socket, writer);
  startTask(request, link, () => {
    socket.end();
    tasks--;
    exitWhenIdle();
  }).then(
    (pid) => {
      link.report({ event: "started", pid }, true);
      onLine(socket, (line) => link.command(line)); // detach, hold, release: the host's messages after its request
      socket.resume();
    },
    (error) => {
      writer?.close();
      link.report({ event: "spawn_failed", message: error.message ?? String(error) });
      socket.end();
      tasks--;
      exitWhenIdle();
    },
  );
}

/** The first line of a connection (bytes up to the first newline, decoded once), parsed; undefined when it is not JSON or too long. */
function readRequest(socket, onRequest) {
  const chunks = [];
  let length = 0;
  const onData = (chunk) => {
    const nl = chunk.indexOf(0x0a);
    chunks.push(nl < 0 ? chunk : chunk.subarray(0, nl));
    length += chunk.length;
    if (nl < 0 && length <= MAX_REQUEST_BYTES) return;
    socket.off("data", onData);
    socket.pause();
    let request;
    try {
      request = nl < 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      request = undefined;
    }
    onRequest(request);
  };
  socket.on("data", onData);
  socket.on("error", () => undefined);
}

/** Calls `onLine` with each line the host sends after its request (a line longer than a request is dropped). */
function onLine(socket, handle) {
  let text = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk) => {
    text += chunk;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n")) {
      handle(text.slice(0, nl));
      text = text.slice(nl + 1);
    }
    if (text.length > MAX_REQUEST_BYTES) text = "";
  });
}

/** Why the request is refused: one event frame, then the connection is closed. */
function refuse(socket, problem) {
  const payload = Buffer.from(
    JSON.stringify({ event: "spawn_failed", message: `refused by the supervisor: ${problem}` }),
  );
  const header = Buffer.allocUnsafe(5);
  header.writeUInt8(EVENT, 0);
  header.writeUInt32BE(payload.length, 1);
  socket.end(Buffer.concat([header, payload]));
}

const plainText = (v) => typeof v === "string" && !v.includes("\0");

/** What is wrong with a task request, or undefined. */
function taskProblem(r) {
  const after = r.afterShellExit;
  const policyOk =
    after?.remaining === "wait" ||
    (after?.remaining === "stop" && Number.isSafeInteger(after.graceMs) && after.graceMs >= 0);
  const checks = [
    [plainText(r.file) && r.file !== "", "file must be a non-empty string without NUL"],
    [Array.isArray(r.args) && r.args.every(plainText), "args must be strings without NUL"],
    [plainText(r.cwd) && r.cwd !== "", "cwd must be a non-empty string without NUL"],
    [
      typeof r.env === "object" &&
        r.env !== null &&
        Object.entries(r.env).every(([k, v]) => plainText(k) && k !== "" && !k.includes("=") && plainText(v)),
      "env must map names to strings, without NUL",
    ],
    [r.stdin === undefined || typeof r.stdin === "string", "stdin must be base64 text"],
    [plainText(r.exitPath) && plainText(r.spillPath), "exitPath and spillPath must be strings"],
    [Number.isSafeInteger(r.spillCapBytes) && r.spillCapBytes >= 0, "spillCapBytes must be a whole number"],
    [typeof r.tag === "string" && /^[0-9a-f]{32}$/.test(r.tag), "tag must be 32 hex digits"],
    [policyOk, "afterShellExit must be stop with graceMs, or wait"],
    [Number.isSafeInteger(r.killGraceMs) && r.killGraceMs >= 0, "killGraceMs must be a whole number"],
    [r.output === undefined || outputProblem(r.output) === undefined, outputProblem(r.output)],
  ];
  return checks.find(([ok]) => !ok)?.[1];
}

/** What is wrong with a request's `output`, or undefined. */
function outputProblem(o) {
  if (typeof o !== "object" || o === null || !plainText(o.path) || !o.path.startsWith("/"))
    return "output.path must be an absolute path without NUL";
  if (!Number.isSafeInteger(o.capBytes) || o.capBytes < MIN_OUTPUT_CAP)
    return `output.capBytes must be a whole number of at least ${MIN_OUTPUT_CAP}`;
  if (o.capAction !== "kill" && o.capAction !== "keep_head_and_tail")
    return "output.capAction must be kill or keep_head_and_tail";
  return undefined;
}

function exitWhenIdle() {
  if (hosts > 0 || tasks > 0) return;
  server.close();
  for (const remove of [() => unlinkSync(socketPath), () => rmdirSync(dirname(socketPath))]) {
    try {
      remove();
    } catch {
      // already gone, or not empty: nothing else of ours is in it
    }
  }
  process.exit(0);
}

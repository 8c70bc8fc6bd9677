#!/usr/bin/env node
// Pi telemetry wrapper for background agent tasks (pi-background-tasks).
//
//   node pi-telemetry-wrapper.mjs <pi launch argv...> -- <the user's pi arguments...>
//   node pi-telemetry-wrapper.mjs --print-fd-identity <fd>
//
// A task command that runs `pi -p …` is prefixed with a shell function `pi() { node <this file> … -- "$@"; }`
// (see pi-command-interception.ts). This script then runs the real pi with `--mode json` added and copies
// pi's stdout line by line, each line behind a marker, so the host can tell telemetry frames from the rest
// of the task's output. It parses nothing beyond a line-prefix check and the stopReason of assistant
// message_end lines (for the exit code): the host folds the events with the tested domain module
// (domain/telemetry/model/). Plain `node` runs this file, so it is
// JavaScript and imports nothing from the package.
//
// What it decides:
// - `-p`/`--print` without `--mode`: `--mode json` is put first (Pi lets --mode json win over -p; -p is kept
//   because dropping it could hand its prompt to a preceding extension flag). If pi's json run ends with an
//   assistant stopReason of error/aborted and pi exited 0, the wrapper exits 1, as `pi -p` itself would.
// - `--mode json` already given: forwarded as is, exit code untouched.
// - `--mode text|rpc` given: pi runs untouched; one frame says why there is no telemetry.
// - no print flag at all (`pi --version`, `pi list`): pi runs untouched, nothing is added.
// - stdout is not the task's output (PI_BG_TASK_STDOUT_ID differs, e.g. `pi -p x > notes.md` or `$(pi -p x)`):
//   pi runs untouched so the user's file or pipe gets what `pi -p` writes.
// - bulky events the host does not need (message_start/update, tool_execution_update, turn_end) are dropped,
//   and agent_end is forwarded without its copy of every message; nothing else is touched.
// Exit: never process.exit; stdout is drained, then the child's exit code is set or its signal re-raised.

import { spawn } from "node:child_process";
import { fstatSync } from "node:fs";
import { constants as osConstants } from "node:os";
import process from "node:process";

const MARKER = Buffer.from("\u001ePI_BG_TELEMETRY ", "utf8");
const LF = 0x0a;
const HEAD_BYTES = 64;
const CAPTURE_LIMIT_BYTES = 8 * 1024 * 1024;
const FORWARDED_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"];
const PI_FLAGS_WITH_VALUE = new Set([
  "--provider",
  "--model",
  "--api-key",
  "--system-prompt",
  "--append-system-prompt",
  "--session",
  "--fork",
  "--session-dir",
  "--models",
  "--tools",
  "-t",
  "--thinking",
  "--export",
  "--extension",
  "-e",
  "--skill",
  "--prompt-template",
  "--theme",
]);
const DROPPED_TYPES = ["message_start", "message_update", "tool_execution_update", "turn_end"];
const prefixesOf = (type) => [Buffer.from(`{"type":"${type}",`), Buffer.from(`{"type":"${type}"}`)];
const DROPPED_PREFIXES = DROPPED_TYPES.flatMap(prefixesOf);
const AGENT_END_PREFIXES = prefixesOf("agent_end");
const ASSISTANT_END_PREFIX = Buffer.from('{"type":"message_end","message":{"role":"assistant"');
const AGENT_END_FRAME = Buffer.from('{"type":"agent_end","wrapperOmitted":["messages"]}\n');

/**
 * Pi's own argv reading (cli/args.js, 0.73), reduced to what decides the output mode. Words Pi would take as
 * the value of -p or of an unknown extension flag never start with "-", so skipping them cannot hide a flag.
 */
function readPiMode(args) {
  let print = false;
  let mode;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const hasNext = i + 1 < args.length;
    if (arg === "--mode" && hasNext) {
      const value = args[++i];
      if (value === "text" || value === "json" || value === "rpc") mode = value;
    } else if (PI_FLAGS_WITH_VALUE.has(arg) && hasNext) {
      i++;
    } else if (arg === "--print" || arg === "-p") {
      print = true;
    }
  }
  return { print, mode };
}

function planInvocation(userArgs, env) {
  const { print, mode } = readPiMode(userArgs);
  if (mode === "text" || mode === "rpc") return { action: "passthrough", reason: `pi-mode-${mode}-not-intercepted` };
  if (mode !== "json" && !print) return { action: "passthrough" };
  if (!stdoutIsTaskOutput(env.PI_BG_TASK_STDOUT_ID)) return { action: "passthrough" };
  if (mode === "json") return { action: "wrap", args: userArgs, mirrorTextExitCode: false };
  return { action: "wrap", args: ["--mode", "json", ...userArgs], mirrorTextExitCode: true };
}

function fdIdentity(fd) {
  const stat = fstatSync(fd, { bigint: true });
  return `${stat.dev}:${stat.ino}`;
}

/** Without a recorded identity the wrapper assumes stdout is the task's output. */
function stdoutIsTaskOutput(recorded) {
  if (recorded === undefined || recorded === "") return true;
  try {
    return fdIdentity(1) === recorded;
  } catch {
    return false;
  }
}

function resolveLaunch(argv, env) {
  const split = argv.indexOf("--");
  if (split > 0) return { launch: argv.slice(0, split), userArgs: argv.slice(split + 1) };
  const real = env.PI_BG_REAL_PI;
  if (real === undefined || real === "") return undefined;
  const launch = /\.[cm]?js$/.test(real) ? [process.execPath, real] : [real];
  return { launch, userArgs: split === 0 ? argv.slice(1) : argv };
}

function telemetryFrame(fields) {
  return Buffer.concat([MARKER, Buffer.from(`${JSON.stringify({ type: "background-task-telemetry", ...fields })}\n`)]);
}

/** Streams pi's stdout through, one marker per line; remembers the last assistant stopReason. */
function createLineGate() {
  let mode = "head";
  let head = [];
  let headLength = 0;
  let capture = [];
  let captureLength = 0;
  const facts = { lastStopReason: undefined };

  const startsWith = (buf, prefix) => buf.length >= prefix.length && buf.subarray(0, prefix.length).equals(prefix);

  function decide(out, lineEnds) {
    const line = Buffer.concat(head);
    head = [];
    headLength = 0;
    if (line.length === 0 && lineEnds) return "forward"; // an empty line stays an empty line
    if (DROPPED_PREFIXES.some((p) => startsWith(line, p))) return "drop";
    if (AGENT_END_PREFIXES.some((p) => startsWith(line, p))) {
      out.push(MARKER, AGENT_END_FRAME);
      return "drop";
    }
    out.push(MARKER, line);
    if (!startsWith(line, ASSISTANT_END_PREFIX)) return "forward";
    capture = [line];
    captureLength = line.length;
    return "capture";
  }

  function endCapture() {
    if (captureLength <= CAPTURE_LIMIT_BYTES) {
      try {
        const stopReason = JSON.parse(Buffer.concat(capture).toString("utf8"))?.message?.stopReason;
        if (typeof stopReason === "string") facts.lastStopReason = stopReason;
      } catch {
        // A line pi cut short (killed mid-write) says nothing reliable about how the run ended.
      }
    }
    capture = [];
    captureLength = 0;
  }

  function feed(chunk) {
    const out = [];
    let i = 0;
    while (i < chunk.length) {
      const lf = chunk.indexOf(LF, i);
      const end = lf === -1 ? chunk.length : lf;
      if (mode === "head") {
        const take = Math.min(end, i + HEAD_BYTES - headLength);
        head.push(chunk.subarray(i, take));
        headLength += take - i;
        i = take;
        if (headLength >= HEAD_BYTES || take === lf) mode = decide(out, take === lf);
        continue;
      }
      const part = chunk.subarray(i, lf === -1 ? end : lf + 1);
      if (mode !== "drop") out.push(part);
      if (mode === "capture" && captureLength <= CAPTURE_LIMIT_BYTES) {
        capture.push(part);
        captureLength += part.length;
      }
      if (lf !== -1) {
        if (mode === "capture") endCapture();
        mode = "head";
      }
      i += part.length;
    }
    return out;
  }

  function end() {
    const out = [];
    if (mode === "head" && headLength > 0) decide(out, false);
    if (mode === "capture") endCapture();
    mode = "head";
    return out;
  }

  return { feed, end, facts };
}

function printFdIdentity(fdText) {
  try {
    process.stdout.write(`${fdIdentity(Number(fdText))}\n`);
  } catch (error) {
    process.stderr.write(`pi-telemetry-wrapper: cannot identify fd ${fdText}: ${error.message}\n`);
  }
}

function forwardSignals(child) {
  const handlers = FORWARDED_SIGNALS.map((signal) => {
    const handler = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    process.on(signal, handler);
    return [signal, handler];
  });
  return () => handlers.forEach(([signal, handler]) => process.off(signal, handler));
}

function exitLike(code, signal, release) {
  release();
  if (signal !== null) {
    process.kill(process.pid, signal);
    // Still here: the signal is ignored in this process, so report it the way a shell would.
    process.exitCode = 128 + (osConstants.signals[signal] ?? 0);
    return;
  }
  process.exitCode = code ?? 1;
}

function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === "--print-fd-identity") return printFdIdentity(argv[1]);
  const resolved = resolveLaunch(argv, process.env);
  if (resolved === undefined || resolved.launch.length === 0) {
    process.stderr.write(
      "pi-telemetry-wrapper: no pi launch given (use `<launch...> -- <args...>` or PI_BG_REAL_PI)\n",
    );
    process.exitCode = 127;
    return;
  }
  const plan = planInvocation(resolved.userArgs, process.env);
  if (plan.action === "passthrough") return run(resolved.launch, resolved.userArgs, plan.reason);
  return runWrapped(resolved.launch, plan);
}

function run(launch, args, reason) {
  if (reason !== undefined) process.stdout.write(telemetryFrame({ telemetryUnavailableReason: reason }));
  const child = spawn(launch[0], [...launch.slice(1), ...args], { stdio: "inherit" });
  const release = forwardSignals(child);
  let done = false;
  child.on("error", (error) => {
    if (done) return;
    done = true;
    process.stderr.write(`pi-telemetry-wrapper: cannot start pi (${launch.join(" ")}): ${error.message}\n`);
    release();
    process.exitCode = 127;
  });
  child.on("close", (code, signal) => {
    if (done) return;
    done = true;
    exitLike(code, signal, release);
  });
}

function runWrapped(launch, plan) {
  const child = spawn(launch[0], [...launch.slice(1), ...plan.args], { stdio: ["inherit", "pipe", "inherit"] });
  const release = forwardSignals(child);
  const gate = createLineGate();
  let stdoutBroken = false;
  let done = false;
  process.stdout.on("error", () => {
    stdoutBroken = true; // the reader went away; keep draining pi so it is not blocked, but write nothing more
    child.stdout.resume();
  });
  const write = (parts) => {
    if (stdoutBroken || parts.length === 0) return true;
    return process.stdout.write(Buffer.concat(parts));
  };
  child.stdout.on("data", (chunk) => {
    if (!write(gate.feed(chunk)) && !stdoutBroken) {
      child.stdout.pause();
      process.stdout.once("drain", () => child.stdout.resume());
    }
  });
  const finish = (code, signal) => {
    if (done) return;
    done = true;
    write(gate.end());
    const mapped =
      plan.mirrorTextExitCode && code === 0 && ["error", "aborted"].includes(gate.facts.lastStopReason) ? 1 : code;
    const settle = () => exitLike(mapped, signal, release);
    if (stdoutBroken) settle();
    else process.stdout.write("", settle);
  };
  child.on("error", (error) => {
    process.stderr.write(`pi-telemetry-wrapper: cannot start pi (${launch.join(" ")}): ${error.message}\n`);
    write([telemetryFrame({ telemetryUnavailableReason: "pi-launch-failed" })]);
    finish(127, null);
  });
  child.on("close", (code, signal) => finish(code, signal));
}

main();

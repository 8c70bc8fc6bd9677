// The process tree of a supervised task, for the shared task supervisor: plain Node ESM, Linux /proc.
//
// A task's processes are the members of its command's process group and every process whose
// PI_BG_PROCESS_TAG list holds the task's tag (those that left the group with setsid, nohup or a double
// fork). Processes older than the command are skipped: they cannot descend from it. /proc is read
// synchronously: a synchronous read of a /proc file is an order of magnitude faster than Node's asynchronous
// one, and each read is a few hundred bytes the kernel makes on the spot.

import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";

const FIRST_POLL_MS = 10;
/** Stopping polls fast; watching a tree that runs on backs off to this (a few stat reads per task and poll). */
const MAX_POLL_MS = 100;
const MAX_WATCH_POLL_MS = 100;
/**
 * Between full scans of /proc only the known processes are looked at (a few stat reads); a full scan runs
 * when all of them have ended (nothing is concluded without one) and otherwise this often, to find forks.
 */
const FULL_SCAN_MS = 10_000;
const KILL_ROUNDS = 8;
// Long enough for a loaded machine (200 ms was not, in CI); only a fork that never execs pays all of it.
const EXEC_SETTLE_MS = 1_000;
const TICKS_PER_SECOND = 100; // USER_HZ, the unit of /proc/<pid>/stat's start time on Linux
const BOOT_MS = bootTimeMs();

/**
 * After the command's exit: hands what still runs to `onRemaining`, then waits for it (or, with `stop`, for
 * the grace and then stops it). Resolves with what the tree did once nothing of it is left. `pgid` is the
 * command's process group (its pid), `notBefore` its start time in clock ticks.
 */
export async function watchTree({ pgid, notBefore, tag, afterShellExit, killGraceMs, onRemaining, shellCommand }) {
  const treeNow = scanner(pgid, notBefore, tag);
  const pidsNow = async () => [...(await treeNow()).keys()];
  let known = await treeNow();
  onRemaining(await afterExecs(pidsNow, shellCommand, [...known.keys()]));
  const seen = new Set(known.keys());
  const stopped = [];
  const deadline = afterShellExit.remaining === "stop" ? Date.now() + afterShellExit.graceMs : Infinity;
  let lastFullScan = Date.now();
  for (let pollMs = FIRST_POLL_MS; known.size > 0; pollMs = Math.min(MAX_WATCH_POLL_MS, pollMs * 2)) {
    if (Date.now() >= deadline) {
      stopped.push(...(await stopTree([...known.keys()], pidsNow, killGraceMs)));
      break;
    }
    await sleep(Math.min(pollMs, deadline - Date.now()));
    const alive = stillRunning(known);
    if (alive.size > 0 && Date.now() - lastFullScan < FULL_SCAN_MS) known = alive;
    else {
      known = await treeNow();
      lastFullScan = Date.now();
    }
    for (const pid of known.keys()) seen.add(pid);
  }
  return { descendants: seen.size, stopped: [...new Set(stopped)], lastEndedAt: Date.now() };
}

/**
 * What still runs, described once the processes the shell forked just before it exited have started their
 * programs: until then a child shows the shell's own command line (`sh -c …`), or none while it execs, and a
 * wrapper such as `nohup` shows itself until it execs its program. So the description counts once it has
 * neither and two reads a poll apart agree. Waits at most EXEC_SETTLE_MS for that. `first` is a scan the caller
 * has just made, so an empty tree is answered without scanning again.
 */
export async function afterExecs(pidsNow, shellCommand, first) {
  const text = (processes) => JSON.stringify(processes.map((p) => [p.pid, p.command]));
  const unsettled = (processes) => processes.some((p) => p.command === shellCommand || p.command === "");
  let described = describeProcesses(first ?? (await pidsNow()));
  if (described.length === 0) return described;
  for (let waited = 0; waited < EXEC_SETTLE_MS; waited += FIRST_POLL_MS) {
    await sleep(FIRST_POLL_MS);
    const again = describeProcesses(await pidsNow());
    const settled = !unsettled(again) && text(again) === text(described);
    described = again;
    if (settled) break;
  }
  return described;
}

/** SIGTERM to each, then SIGKILL after the kill grace to whatever is left (rescanning for late forks). */
async function stopTree(pids, treeNow, killGraceMs) {
  const signalled = new Set(pids);
  signalEach(pids, "SIGTERM");
  const deadline = Date.now() + killGraceMs;
  let left = pids;
  for (
    let pollMs = FIRST_POLL_MS;
    left.length > 0 && Date.now() < deadline;
    pollMs = Math.min(MAX_POLL_MS, pollMs * 2)
  ) {
    await sleep(Math.min(pollMs, deadline - Date.now()));
    left = await treeNow();
    const fresh = left.filter((pid) => !signalled.has(pid));
    for (const pid of fresh) signalled.add(pid);
    signalEach(fresh, "SIGTERM");
  }
  for (let round = 0; round < KILL_ROUNDS && left.length > 0; round++) {
    for (const pid of left) signalled.add(pid);
    signalEach(left, "SIGKILL");
    await sleep(FIRST_POLL_MS);
    left = await treeNow();
  }
  return [...signalled];
}

function signalEach(pids, signal) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone already (ESRCH), or no longer ours to signal (EPERM)
    }
  }
}

/**
 * The task's live processes (pid → start ticks) in the latest full scan: members of its group and processes
 * carrying the tag. What a process's environment holds is remembered for all tasks (by pid and start time, so
 * a reused pid is looked at again): each environment is read once, not once per task and scan.
 */
function scanner(pgid, notBefore, tag) {
  return async () => {
    const found = new Map();
    for (const p of await processSnapshot()) {
      if (p.startTicks < notBefore) continue;
      if (p.pgrp === pgid || tagsOf(p.pid, p.startTicks).includes(tag)) found.set(p.pid, p.startTicks);
    }
    return found;
  };
}

let pendingSnapshot;

/**
 * Every live process (no zombies) with its group and start time, from one scan of /proc shared by every task
 * that asks in the same turn of the event loop: 200 commands exiting together cost one scan, not 200.
 */
function processSnapshot() {
  pendingSnapshot ??= new Promise((resolve) =>
    setImmediate(() => {
      pendingSnapshot = undefined;
      resolve(scanProc());
    }),
  );
  return pendingSnapshot;
}

function scanProc() {
  let entries;
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const live = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const stat = statOf(pid);
    if (stat === undefined || stat.state === "Z" || stat.state === "X") continue;
    live.push({ pid, pgrp: stat.pgrp, startTicks: stat.startTicks });
  }
  return live;
}

/** pid → { startTicks, tags }: the PI_BG_PROCESS_TAG list each process started with. */
const knownTags = new Map();
const MAX_KNOWN = 65_536;

function tagsOf(pid, startTicks) {
  const known = knownTags.get(pid);
  if (known?.startTicks === startTicks) return known.tags;
  const environ = settledEnviron(pid);
  const tags = environ === undefined ? [] : tagList(environ);
  // An environ still empty after the retries is not remembered: the next scan looks again.
  if (environ === undefined || environ.length > 0) {
    if (knownTags.size >= MAX_KNOWN) knownTags.clear();
    knownTags.set(pid, { startTicks, tags });
  }
  return tags;
}

/** Those of the known processes that still run (the same process: same start time, not a zombie). */
function stillRunning(known) {
  const alive = new Map();
  for (const [pid, startTicks] of known) {
    const stat = statOf(pid);
    if (stat !== undefined && stat.state !== "Z" && stat.state !== "X" && stat.startTicks === startTicks)
      alive.set(pid, startTicks);
  }
  return alive;
}

const ENVIRON_ATTEMPTS = 4;

/**
 * A process in the middle of execve shows an empty environ for a moment (a `setsid sleep` forked just before
 * the shell exited): read again, a millisecond or so apart, before believing it. Blocking is fine here, as
 * for the relay's EAGAIN wait: the supervisor has nothing else to do during a scan.
 */
function settledEnviron(pid) {
  for (let attempt = 1; ; attempt++) {
    let environ;
    try {
      environ = readFileSync(`/proc/${pid}/environ`);
    } catch {
      return undefined; // ended, or another user's: not ours either way
    }
    if (environ.length > 0 || attempt === ENVIRON_ATTEMPTS) return environ;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, attempt);
  }
}

function tagList(environ) {
  for (const entry of environ.toString("latin1").split("\0"))
    if (entry.startsWith("PI_BG_PROCESS_TAG=")) return entry.slice("PI_BG_PROCESS_TAG=".length).split(":");
  return [];
}

/** The command line and start time (epoch ms) of each pid that still runs; for the host's launcher too. */
export function describeProcesses(pids) {
  const out = [];
  for (const pid of pids) {
    const stat = statOf(pid);
    if (stat === undefined || stat.state === "Z" || stat.state === "X") continue;
    const command = readOrEmpty(`/proc/${pid}/cmdline`).toString("utf8").replace(/\0+$/, "").replaceAll("\0", " ");
    out.push(
      BOOT_MS === undefined
        ? { pid, command }
        : { pid, command, startedAt: BOOT_MS + Math.round((stat.startTicks * 1000) / TICKS_PER_SECOND) },
    );
  }
  return out;
}

const STAT_BYTES = Buffer.allocUnsafe(4096); // a stat line is a few hundred bytes; comm is at most 64
const CLOSE_PAREN = 0x29;
const SPACE = 0x20;
const STATE = 0; // field indexes after "pid (comm) "
const PGRP = 2;
const START_TIME = 19;

/**
 * { state, pgrp, startTicks } of a live pid, or undefined when it has ended or cannot be read. A scan reads
 * this for every process, so it is read with one read into a shared buffer and parsed as bytes (no string
 * per process): about a third cheaper than reading the file as text.
 */
function statOf(pid) {
  let length;
  try {
    const fd = openSync(`/proc/${pid}/stat`, "r");
    try {
      length = readSync(fd, STAT_BYTES, 0, STAT_BYTES.length, null);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined; // ended while we looked, or not ours to read
  }
  return parseStat(STAT_BYTES, length);
}

/**
 * `pid (comm) state ppid pgrp … starttime …`; comm may hold spaces and parentheses, so fields are counted
 * after the last ')'. The numeric fields read here are unsigned decimals.
 */
export function parseStat(bytes, length) {
  if (length < 3) return undefined;
  const close = bytes.lastIndexOf(CLOSE_PAREN, length - 1);
  if (close < 0 || close + 2 >= length) return undefined;
  const state = String.fromCharCode(bytes[close + 2]);
  let field = STATE;
  let value = -1;
  let pgrp;
  for (let i = close + 3; i <= length; i++) {
    const byte = i < length ? bytes[i] : SPACE;
    if (byte === SPACE || byte === 0x0a) {
      if (field === PGRP) pgrp = value;
      if (field === START_TIME) return pgrp >= 0 && value >= 0 ? { state, pgrp, startTicks: value } : undefined;
      field++;
      value = -1;
    } else if (byte >= 0x30 && byte <= 0x39) value = (value < 0 ? 0 : value * 10) + (byte - 0x30);
    else value = Number.NaN;
  }
  return undefined;
}

/** A process's start time in clock ticks after boot; 0 when unknown (nothing is skipped then). */
export function startTicksOf(pid) {
  return statOf(pid)?.startTicks ?? 0;
}

function bootTimeMs() {
  try {
    const line = readFileSync("/proc/stat", "utf8")
      .split("\n")
      .find((l) => l.startsWith("btime "));
    const seconds = Number(line?.slice("btime ".length));
    return Number.isSafeInteger(seconds) ? seconds * 1000 : undefined;
  } catch {
    return undefined;
  }
}

function readOrEmpty(path) {
  try {
    return readFileSync(path);
  } catch {
    return Buffer.alloc(0); // ended while we looked, or not ours to read
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

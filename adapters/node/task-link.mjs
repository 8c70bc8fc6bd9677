// One task's connection to its host, as the task supervisor (task-supervisor.mjs) sees it: plain Node ESM.

const EVENT = 0;
/** Output progress is reported at most this often while bytes flow. */
const PROGRESS_MS = 100;

/**
 * Frames to the host while its connection lives; `output` says false once it is gone (or has let go). With a
 * `writer` (task-output-file.mjs) output goes into the output file instead of frames, and its progress is
 * reported; the writer is closed when the host is gone or lets go, so later output is spilled by the task.
 */
export function taskLink(socket, writer) {
  let open = true;
  let started = false;
  let holding = false;
  let ending = false;
  let progressTimer;
  const paused = [];
  const pending = [];
  let streams = [];
  const resume = () => {
    if (holding || socket.writableNeedDrain) return;
    for (const stream of paused.splice(0)) stream.resume();
  };
  const pause = () => {
    for (const stream of streams)
      if (!paused.includes(stream)) {
        stream.pause();
        paused.push(stream);
      }
  };
  const send = (type, payload) => {
    if (!open) return false;
    const header = Buffer.allocUnsafe(5);
    header.writeUInt8(type, 0);
    header.writeUInt32BE(payload.length, 1);
    socket.cork();
    socket.write(header);
    const flowing = socket.write(payload);
    socket.uncork();
    if (!flowing) pause();
    return true;
  };
  const event = (body) => send(EVENT, Buffer.from(JSON.stringify(body)));
  const withOutput = (body) => (writer === undefined ? body : { ...body, output: writer.state() });
  const progress = () => {
    clearTimeout(progressTimer);
    progressTimer = undefined;
    event(withOutput({ event: "output" }));
  };
  /** The writer stops for good: the host is gone, or has let go (its ring is the host's to put in order). */
  const stopWriting = () => {
    clearTimeout(progressTimer);
    writer?.close();
    writer = undefined;
  };
  socket.on("error", () => undefined);
  socket.on("close", () => {
    open = false;
    holding = false;
    stopWriting();
    for (const stream of paused.splice(0)) stream.resume();
  });
  socket.on("drain", resume);

  /**
   * The host lets go (it is shutting down and the task survives it): everything relayed or written so far is
   * ahead of the `detached` event, and from here on output goes to the spill file, so no byte falls between.
   */
  function letGo() {
    if (!open || ending || socket.writableEnded) return; // the task has ended: its exit frame answers instead
    event(withOutput({ event: "detached" }));
    stopWriting();
    open = false;
    holding = false;
    socket.end();
    for (const stream of paused.splice(0)) stream.resume();
  }

  return {
    pauseWhile(list) {
      streams = list;
    },
    holdingBack: () => paused.length > 0 && !holding,
    /** The task's end is being committed: a "detach" from here on is answered by its exit frame. */
    ending() {
      ending = true;
    },
    output(fd, chunk) {
      if (writer !== undefined) {
        if (writer.append(chunk) && started)
          progress(); // a kill cap was passed: the host stops the task now
        else if (started) progressTimer ??= setTimeout(progress, PROGRESS_MS);
        return true;
      }
      if (!started) {
        pending.push([fd, chunk]); // the pid goes first; the command may print before the spawn resolves
        return open;
      }
      return send(fd, chunk);
    },
    /** A line from the host: "detach", "hold" or "release"; anything else is ignored. */
    command(line) {
      if (line === "detach") letGo();
      else if (line === "hold" && open && !socket.writableEnded) {
        holding = true;
        pause();
        event(withOutput({ event: "held" }));
      } else if (line === "release") {
        holding = false;
        resume();
      }
    },
    report(body, first = false) {
      const full = body.event === "exit" || first ? withOutput(body) : body;
      if (body.event === "exit") stopWriting();
      event(full);
      if (!first) return;
      started = true;
      for (const [fd, chunk] of pending.splice(0)) send(fd, chunk);
      if (writer?.state().produced > 0) progressTimer ??= setTimeout(progress, PROGRESS_MS);
    },
  };
}

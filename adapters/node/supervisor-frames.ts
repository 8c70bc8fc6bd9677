import type { Socket } from "node:net";

/** Frame types of task-supervisor.mjs: a JSON event, or output of the command's stdout (1) or stderr (2). */
const EVENT = 0;
const HEADER = 5;

export interface FrameHandlers {
  onEvent(event: string): void;
  onOutput(fd: 1 | 2, bytes: Uint8Array): void;
}

/**
 * Splits what the supervisor sends on one task connection into frames (type byte, 4-byte big-endian length,
 * payload). Frames that arrive before `listen` are kept, so nothing is lost between the first event (the
 * start) and the moment the task's process object exists.
 */
export class SupervisorFrames {
  readonly #header = Buffer.alloc(HEADER);
  #headerFill = 0;
  /** The type of the frame being read, -1 between frames; `#left` of its payload bytes are still to come. */
  #type = -1;
  #left = 0;
  #eventParts: Buffer[] = [];
  #kept: { type: number; payload: Buffer }[] = [];
  #handlers: FrameHandlers | undefined;
  #firstEvent: ((event: string | undefined) => void) | undefined;
  #first: Promise<string | undefined>;

  constructor(socket: Socket) {
    this.#first = new Promise((resolve) => (this.#firstEvent = resolve));
    socket.on("data", (chunk: Buffer) => this.#take(chunk));
    socket.once("close", () => this.#firstEvent?.(undefined));
  }

  /** The first event (the start or why it failed); undefined if the connection closed before one. */
  first(): Promise<string | undefined> {
    return this.#first;
  }

  listen(handlers: FrameHandlers): void {
    this.#handlers = handlers;
    for (const frame of this.#kept.splice(0)) this.#dispatch(frame.type, frame.payload);
  }

  /**
   * Output is passed on piece by piece as it arrives (a frame of 64 KiB usually spans two reads), never copied;
   * only an event, which is parsed whole, is put together.
   */
  #take(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.#type < 0) {
        const n = Math.min(HEADER - this.#headerFill, chunk.length - at);
        chunk.copy(this.#header, this.#headerFill, at, at + n);
        this.#headerFill += n;
        at += n;
        if (this.#headerFill < HEADER) return;
        this.#headerFill = 0;
        this.#type = this.#header.readUInt8(0);
        this.#left = this.#header.readUInt32BE(1);
      }
      const piece = chunk.subarray(at, at + this.#left);
      at += piece.length;
      this.#left -= piece.length;
      if (this.#type === EVENT) this.#eventParts.push(piece);
      else if (piece.length > 0) this.#frame(this.#type, piece);
      if (this.#left > 0) return;
      if (this.#type === EVENT) {
        const parts = this.#eventParts.splice(0);
        this.#frame(EVENT, parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts));
      }
      this.#type = -1;
    }
  }

  #frame(type: number, payload: Buffer): void {
    if (this.#firstEvent !== undefined && type === EVENT) {
      const resolve = this.#firstEvent;
      this.#firstEvent = undefined;
      resolve(payload.toString("utf8"));
    } else if (this.#handlers === undefined) this.#kept.push({ type, payload });
    else this.#dispatch(type, payload);
  }

  #dispatch(type: number, payload: Buffer): void {
    if (type === EVENT) this.#handlers?.onEvent(payload.toString("utf8"));
    else if (type === 1 || type === 2) this.#handlers?.onOutput(type, payload);
  }
}

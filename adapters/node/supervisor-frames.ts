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
  #buffer: Buffer = Buffer.alloc(0);
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

  #take(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    while (this.#buffer.length >= HEADER) {
      const length = this.#buffer.readUInt32BE(1);
      if (this.#buffer.length < HEADER + length) return;
      const type = this.#buffer.readUInt8(0);
      const payload = this.#buffer.subarray(HEADER, HEADER + length);
      this.#buffer = this.#buffer.subarray(HEADER + length);
      if (this.#firstEvent !== undefined && type === EVENT) {
        const resolve = this.#firstEvent;
        this.#firstEvent = undefined;
        resolve(payload.toString("utf8"));
      } else if (this.#handlers === undefined) this.#kept.push({ type, payload });
      else this.#dispatch(type, payload);
    }
  }

  #dispatch(type: number, payload: Buffer): void {
    if (type === EVENT) this.#handlers?.onEvent(payload.toString("utf8"));
    else if (type === 1 || type === 2) this.#handlers?.onOutput(type, payload);
  }
}

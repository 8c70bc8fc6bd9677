import type { Readable } from "node:stream";
import type Dockerode from "dockerode";
import { DockerLogFrames } from "./docker-log-frames.ts";

/**
 * An ended container's whole log, streamed from its start (the engine ends a follow stream of a stopped container
 * at the log's end), so a log of any size is read without holding it: each payload after the first `skipBytes`
 * goes to `sink`, which is awaited before more is read.
 */
export async function readEndedLog(
  container: Dockerode.Container,
  skipBytes: number,
  sink: (bytes: Buffer) => void | Promise<void>,
): Promise<void> {
  const stream = (await container.logs({ follow: true, stdout: true, stderr: true })) as unknown as Readable;
  const ready: Buffer[] = [];
  const frames = new DockerLogFrames((_stream, bytes) => ready.push(bytes), skipBytes);
  for await (const chunk of stream) {
    frames.push(chunk as Buffer);
    for (const bytes of ready.splice(0)) await sink(bytes);
  }
}

import type { TaskTelemetry } from "../../tasks/model/task-snapshot.ts";
import type { StreamFilter } from "../../tasks/service/execution-hooks.ts";
import {
  telemetryOf,
  type ContextWindowIndex,
  type PiTelemetryState,
} from "../../telemetry/model/pi-event-telemetry.ts";
import {
  createAttestedStream,
  finishAttestedStream,
  ingestAttestedChunk,
  type AttestedStreamState,
} from "../model/attested-pi-stream.ts";
import type { EvidenceFile } from "./evidence-file.ts";

const encoder = new TextEncoder();
const bytesOf = (text: string): Uint8Array[] => (text.length === 0 ? [] : [encoder.encode(text)]);

/** Stdout of the attested child: raw bytes to the events file first, then the transcript for the output file. */
export class AttestedStdoutCapture implements StreamFilter {
  private stream: AttestedStreamState = createAttestedStream();
  private folded: PiTelemetryState | undefined;
  private current: TaskTelemetry | undefined;

  constructor(
    readonly events: EvidenceFile,
    private readonly windows: ContextWindowIndex,
  ) {}

  get state(): AttestedStreamState {
    return this.stream;
  }

  async push(chunk: Uint8Array): Promise<Uint8Array[]> {
    await this.events.write(chunk);
    const step = ingestAttestedChunk(this.stream, chunk);
    this.stream = step.state;
    return bytesOf(step.transcript);
  }

  async flush(): Promise<Uint8Array[]> {
    const step = finishAttestedStream(this.stream);
    this.stream = step.state;
    await this.events.close();
    return bytesOf(step.transcript);
  }

  telemetry(): TaskTelemetry | undefined {
    if (!this.stream.telemetry.started) return undefined;
    if (this.folded !== this.stream.telemetry) {
      this.folded = this.stream.telemetry;
      this.current = telemetryOf(this.stream.telemetry, this.windows);
    }
    return this.current;
  }

  failure(): string | undefined {
    return this.events.error;
  }

  overLimit(): boolean {
    return this.events.overCap;
  }
}

/** Stderr of the attested child: kept whole in its own file; the output file only notes where it is. */
export class AttestedStderrCapture implements StreamFilter {
  constructor(
    readonly stderr: EvidenceFile,
    private readonly shownPath: string,
  ) {}

  async push(chunk: Uint8Array): Promise<Uint8Array[]> {
    await this.stderr.write(chunk);
    return [];
  }

  async flush(): Promise<Uint8Array[]> {
    await this.stderr.close();
    return this.stderr.bytes === 0 ? [] : bytesOf(`[stderr: ${this.stderr.bytes} bytes kept in ${this.shownPath}]\n`);
  }

  failure(): string | undefined {
    return this.stderr.error;
  }

  overLimit(): boolean {
    return this.stderr.overCap;
  }
}

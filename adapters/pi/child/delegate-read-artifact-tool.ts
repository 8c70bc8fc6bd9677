import { Type } from "typebox";
import { artifactPath, SPILL_NAME_PATTERN } from "../../../domain/delegate/model/delegate-artifacts.ts";
import { decodeUtf8 } from "../../../domain/delegate/model/delegate-result-verification.ts";
import { sha256Hex } from "../../../domain/shared/model/canonical-json.ts";
import { err, ok, type Result, type TypedError } from "../../../domain/shared/model/result.ts";
import { checkArguments } from "../../../domain/shared/model/tool-arguments.ts";
import { type HostToolSpec, READS_PROJECT } from "../../../domain/shared/service/host-tool-spec.ts";
import { readRangeSync } from "./delegate-guard-files.ts";

export const READ_ARTIFACT_TOOL = "delegate_read_artifact";

interface ReadArtifactArgs {
  readonly artifact: string;
  readonly offset: number;
  readonly length: number;
}

export interface ReadArtifactDetails {
  readonly artifact: string;
  readonly offset: number;
  readonly length: number;
  readonly sha256: string;
  readonly encoding: "utf-8" | "base64";
}

const readFailed = (message: string): Result<never, TypedError> =>
  err({ code: "artifact_read_failed", message: `artifact_read_failed: ${message}; nothing was returned` });

/**
 * The child-only tool that reads an exact byte range of a spilled tool result. It never clamps: a range
 * past the end, an unknown artifact name or a too-long request fails and says why. A range that is
 * valid UTF-8 is returned as exactly that text; otherwise as base64 behind a one-line header.
 */
export function readArtifactTool(
  artifactDir: string | undefined,
  maxLength: number,
): HostToolSpec<ReadArtifactArgs, ReadArtifactDetails> {
  const schema = Type.Object(
    {
      artifact: Type.String({ description: "The artifact named by a spill receipt, e.g. spill/<sha256>.bin" }),
      offset: Type.Integer({ minimum: 0, description: "First byte to read (0-based)" }),
      length: Type.Integer({ minimum: 1, maximum: maxLength, description: `Bytes to read, at most ${maxLength}` }),
    },
    { additionalProperties: false },
  );
  return {
    name: READ_ARTIFACT_TOOL,
    label: "read artifact",
    effects: READS_PROJECT,
    description: `Read an exact byte range of a spilled tool result (its receipt names the artifact and size). A range past the end fails instead of being shortened. At most ${maxLength} bytes per call.`,
    promptSnippet: "Read an exact byte range of a spilled tool result",
    parameters: schema,
    normalize: (raw) => {
      const checked = checkArguments<ReadArtifactArgs>(READ_ARTIFACT_TOOL, schema, raw);
      if (!checked.ok) return checked;
      if (!SPILL_NAME_PATTERN.test(checked.value.artifact))
        return readFailed(
          `${JSON.stringify(checked.value.artifact)} is not a spill artifact name (spill/<sha256>.bin)`,
        );
      return checked;
    },
    run: async ({ artifact, offset, length }) => {
      if (artifactDir === undefined) return readFailed("this child has no verified artifact directory");
      let bytes: Buffer;
      try {
        bytes = readRangeSync(artifactPath(artifactDir, artifact), offset, length);
      } catch (error) {
        return readFailed(error instanceof Error ? error.message : String(error));
      }
      const text = decodeUtf8(bytes);
      const body =
        text ??
        `[bytes ${offset}..${offset + length} of ${artifact} are not valid UTF-8 on their own; base64 follows]\n${bytes.toString("base64")}`;
      const details: ReadArtifactDetails = {
        artifact,
        offset,
        length,
        sha256: sha256Hex(bytes),
        encoding: text === undefined ? "base64" : "utf-8",
      };
      return ok({ text: body, details });
    },
  };
}

import type { TSchema } from "typebox";

/** A tool's argument schema: plain JSON Schema built with TypeBox, the form every host accepts. */
export type ToolParametersSchema = TSchema;

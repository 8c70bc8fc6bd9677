import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { READS_PROJECT, type AnyHostToolSpec, type HostToolSpec } from "../../domain/shared/service/host-tool-spec.ts";
import { checkArguments } from "../../domain/shared/model/tool-arguments.ts";
import { err, ok } from "../../domain/shared/model/result.ts";
import { serveToolSpecs } from "./mcp-tool-server.ts";

const EchoSchema = Type.Object(
  { word: Type.String({ minLength: 1 }), fail: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

function echoSpec(runs: unknown[]): HostToolSpec<{ word: string; fail?: boolean }, { echoed: string }> {
  return {
    name: "echo",
    label: "Echo",
    effects: READS_PROJECT,
    description: "Echoes a word.",
    promptSnippet: "echo",
    promptGuidelines: ["Use it for words."],
    parameters: EchoSchema,
    normalize: (raw) => checkArguments("echo", EchoSchema, raw),
    run: async (args, context) => {
      runs.push(args);
      context.progress?.("half way");
      context.progress?.("almost");
      return args.fail === true
        ? err({ code: "echo_refused", message: `cannot echo ${args.word}` })
        : ok({ text: `echo: ${args.word}`, details: { echoed: args.word } });
    },
  };
}

let clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
});

async function serve(specs: readonly AnyHostToolSpec[]) {
  const server = new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } });
  const warnings: string[] = [];
  serveToolSpecs(server, specs, (m) => warnings.push(m));
  const client = new Client({ name: "c", version: "0" });
  clients.push(client);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(b), client.connect(a)]);
  return { client, warnings };
}

describe("serveToolSpecs", () => {
  it("lists each spec with its label as title, guidance in the description, its effects as annotations and the schema as plain JSON Schema", async () => {
    const { client } = await serve([echoSpec([])]);
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      {
        name: "echo",
        title: "Echo",
        description: "Echoes a word.\n\nGuidance:\n- Use it for words.",
        inputSchema: {
          type: "object",
          required: ["word"],
          properties: { word: { type: "string", minLength: 1 }, fail: { type: "boolean" } },
          additionalProperties: false,
        },
        annotations: {
          title: "Echo",
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
    ]);
  });

  it("answers with the text and the details as structured content", async () => {
    const { client } = await serve([echoSpec([])]);
    expect(await client.callTool({ name: "echo", arguments: { word: "hi" } })).toEqual({
      content: [{ type: "text", text: "echo: hi" }],
      structuredContent: { echoed: "hi" },
    });
  });

  it("turns refused arguments and expected failures into tool errors carrying the typed error; nothing runs for bad arguments", async () => {
    const runs: unknown[] = [];
    const { client } = await serve([echoSpec(runs)]);
    const bad = await client.callTool({ name: "echo", arguments: { word: "hi", loud: true } });
    expect(bad).toMatchObject({
      isError: true,
      structuredContent: { error: { code: "invalid_arguments", tool: "echo" } },
    });
    expect(JSON.stringify(bad.content)).toContain("unknown key 'loud'");
    expect(runs).toEqual([]);
    const refused = await client.callTool({ name: "echo", arguments: { word: "hi", fail: true } });
    expect(refused).toEqual({
      isError: true,
      content: [{ type: "text", text: "cannot echo hi (echo_refused)" }],
      structuredContent: { error: { code: "echo_refused", message: "cannot echo hi" } },
    });
  });

  it("an unknown tool is a typed tool error naming the tools there are", async () => {
    const { client } = await serve([echoSpec([])]);
    const answer = await client.callTool({ name: "bg_nope", arguments: {} });
    expect(answer).toMatchObject({ isError: true, structuredContent: { error: { code: "unknown_tool" } } });
    expect(JSON.stringify(answer.content)).toContain("echo");
  });

  it("sends progress notes only to a caller that asked for progress", async () => {
    const { client, warnings } = await serve([echoSpec([])]);
    const notes: string[] = [];
    await client.callTool({ name: "echo", arguments: { word: "a" } }, CallToolResultSchema, {
      onprogress: (p) => notes.push(`${p.progress}:${p.message}`),
    });
    expect(notes).toEqual(["1:half way", "2:almost"]);
    // A progress note without a token the client handed out would surface as a client error.
    const stray: Error[] = [];
    client.onerror = (error) => stray.push(error);
    const plain = await client.request(
      { method: "tools/call", params: { name: "echo", arguments: { word: "b" } } },
      CallToolResultSchema,
    );
    expect(plain.isError).toBeUndefined();
    expect(stray).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("refuses two specs with one name", () => {
    const server = new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } });
    expect(() => serveToolSpecs(server, [echoSpec([]), echoSpec([])], () => undefined)).toThrow(
      /two tool specs are named echo/,
    );
  });
});

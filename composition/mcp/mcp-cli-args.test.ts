import { describe, expect, it } from "vitest";
import { parseMcpArgs } from "./mcp-cli-args.ts";

const parse = (args: string, env: Record<string, string> = {}) => parseMcpArgs(args.split(" ").filter(Boolean), env);

describe("parseMcpArgs", () => {
  it("keeps stdio as the default and HTTP on loopback with a generated token", () => {
    expect(parse("mcp")).toEqual({ ok: true, value: { kind: "stdio" } });
    expect(parse("mcp --http")).toEqual({
      ok: true,
      value: { kind: "http", host: "127.0.0.1", port: 0, token: { kind: "generate" } },
    });
    expect(parse("mcp --http --port 4100 --token-file /t")).toMatchObject({
      value: { port: 4100, token: { kind: "file", path: "/t" } },
    });
    expect(parse("mcp --http", { PI_BG_MCP_TOKEN: "x" })).toMatchObject({ value: { token: { kind: "env" } } });
    expect(parse("mcp --http --no-auth --host localhost")).toMatchObject({
      value: { host: "localhost", token: { kind: "none" } },
    });
  });

  it("refuses what it cannot honour, saying why", () => {
    const refusals: [string, RegExp][] = [
      ["mcp --http --no-auth --host 0.0.0.0", /only on a loopback address/],
      ["mcp --port 4100", /go with --http/],
      ["mcp --http --port 70000", /--port must be/],
      ["mcp --http --port -1", /--port needs a value|--port must be/],
      ["mcp --http --port", /--port needs a value/],
      ["mcp --http --bogus", /unknown option --bogus/],
      ["mcp --http --no-auth --token-file /t", /contradict/],
      ["serve", /unknown command serve/],
      ["", /no command/],
    ];
    for (const [args, why] of refusals) {
      const parsed = parse(args);
      expect(parsed.ok, args).toBe(false);
      if (!parsed.ok) expect(parsed.error, args).toMatch(why);
    }
  });
});

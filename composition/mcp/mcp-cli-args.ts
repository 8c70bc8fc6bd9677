import { isLoopbackHost } from "../../adapters/mcp/http-request-guard.ts";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";

/** Where an HTTP server's bearer token comes from. */
export type TokenSource =
  | { readonly kind: "generate" }
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "env" }
  | { readonly kind: "none" };

export type McpCommand =
  | { readonly kind: "stdio" }
  | { readonly kind: "http"; readonly host: string; readonly port: number; readonly token: TokenSource }
  | { readonly kind: "version" }
  | { readonly kind: "help" };

/** The variable an HTTP server takes its token from when `--token-file` is not given. */
export const TOKEN_ENV = "PI_BG_MCP_TOKEN";

/** `mcp [--http [--host H] [--port N] [--token-file F | --no-auth]]`, `--version`, `--help`. */
export function parseMcpArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Result<McpCommand, string> {
  const [command, ...rest] = argv;
  if (command === "--version") return ok({ kind: "version" });
  if (command === "--help" || command === "-h") return ok({ kind: "help" });
  if (command !== "mcp") return err(command === undefined ? "no command given" : `unknown command ${command}`);
  if (rest.length === 0) return ok({ kind: "stdio" });
  const flags = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i] ?? "";
    if (flag === "--http" || flag === "--no-auth") flags.set(flag, true);
    else if (flag === "--host" || flag === "--port" || flag === "--token-file") {
      const value = rest[++i];
      if (value === undefined || value.startsWith("--")) return err(`${flag} needs a value`);
      flags.set(flag, value);
    } else return err(`unknown option ${flag}`);
  }
  if (flags.get("--http") !== true) return err("--host, --port, --token-file and --no-auth go with --http");
  const host = String(flags.get("--host") ?? "127.0.0.1");
  const portText = String(flags.get("--port") ?? "0");
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) return err(`--port must be 0 (any free port) to 65535, not ${portText}`);
  const tokenFile = flags.get("--token-file");
  if (flags.has("--no-auth")) {
    if (tokenFile !== undefined) return err("--no-auth and --token-file contradict each other");
    if (!isLoopbackHost(host)) return err(`--no-auth is accepted only on a loopback address, not ${host}`);
    return ok({ kind: "http", host, port, token: { kind: "none" } });
  }
  const token: TokenSource =
    typeof tokenFile === "string"
      ? { kind: "file", path: tokenFile }
      : (env[TOKEN_ENV] ?? "") !== ""
        ? { kind: "env" }
        : { kind: "generate" };
  return ok({ kind: "http", host, port, token });
}

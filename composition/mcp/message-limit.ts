/** Below the SDK's 10 MiB input buffer, whose overflow would close the stdio transport and stop every task. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

export function tooLarge(id: number | string | null, bytes: number) {
  const message = `the request is ${bytes} bytes, over this server's ${MAX_MESSAGE_BYTES}-byte limit per message; nothing was done — send less (put large inputs in a file and name it)`;
  return { jsonrpc: "2.0", id, error: { code: -32600, message } };
}

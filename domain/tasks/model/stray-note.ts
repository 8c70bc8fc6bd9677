/**
 * The `error` and `strays` fields of a terminal snapshot when descendants kept the output open after
 * the command exited and had to be stopped. The status is not changed: the command's own exit decides it.
 */
export function strayFields(
  error: string | undefined,
  strays: readonly number[] | undefined,
): { readonly error?: string; readonly strays?: number } {
  const count = strays?.length ?? 0;
  if (strays === undefined || count === 0) return error === undefined ? {} : { error };
  const one = count === 1;
  const note = `${count} descendant process${one ? "" : "es"} outlived the command and ${one ? "was" : "were"} stopped (pid${one ? "" : "s"} ${strays.join(", ")})`;
  return { error: error === undefined ? note : `${error}; ${note}`, strays: count };
}

import { err, ok, type Result } from "../../shared/model/result.ts";
import type { InvalidArguments } from "../../shared/model/tool-arguments.ts";
import { invalidArguments } from "../../shared/model/tool-arguments.ts";

export interface BgCommandLine {
  readonly command: string;
  readonly isAgent: boolean;
  readonly name?: string;
  /** `--survive-reload`: keep the task running across /reload and restarts (shell tasks only). */
  readonly surviveReload?: true;
}

export const BG_USAGE = "Usage: /bg [--agent|--no-agent] [--name NAME] [--survive-reload] [--] <command>";

/** Parses `/bg` arguments. Options come first; `--` or the first non-option word starts the command. */
export function parseBgCommandLine(input: string): Result<BgCommandLine, InvalidArguments> {
  let rest = input.trimStart();
  let isAgent = false;
  let name: string | undefined;
  let surviveReload = false;
  for (;;) {
    const word = /^(\S+)/.exec(rest)?.[1];
    if (word === undefined) break;
    if (word === "--") {
      rest = rest.slice(2).trimStart();
      break;
    }
    if (word === "--agent" || word === "--llm-agent") isAgent = true;
    else if (word === "--no-agent" || word === "--script") isAgent = false;
    else if (word === "--survive-reload") surviveReload = true;
    else if (word.startsWith("--name=")) name = word.slice("--name=".length);
    else if (word === "--name" || word === "-n") {
      const value = takeValue(rest.slice(word.length));
      if (value === undefined) return err(invalidArguments("/bg", [`${word} needs a value. ${BG_USAGE}`]));
      name = value.value;
      rest = value.rest;
      continue;
    } else if (word.startsWith("--")) {
      // Double-dash words before the command are options; a single-dash word may start the command itself.
      return err(invalidArguments("/bg", [`unknown option ${word}. ${BG_USAGE}`]));
    } else break;
    rest = rest.slice(word.length).trimStart();
  }
  const command = rest.trim();
  if (command.length === 0) return err(invalidArguments("/bg", [`no command given. ${BG_USAGE}`]));
  return ok({
    command,
    isAgent,
    ...(name === undefined || name.trim() === "" ? {} : { name: name.trim() }),
    ...(surviveReload ? { surviveReload: true as const } : {}),
  });
}

function takeValue(text: string): { value: string; rest: string } | undefined {
  const trimmed = text.trimStart();
  const quoted = /^"([^"]*)"|^'([^']*)'/.exec(trimmed);
  if (quoted) return { value: quoted[1] ?? quoted[2] ?? "", rest: trimmed.slice(quoted[0].length).trimStart() };
  const word = /^(\S+)/.exec(trimmed)?.[1];
  return word === undefined ? undefined : { value: word, rest: trimmed.slice(word.length).trimStart() };
}

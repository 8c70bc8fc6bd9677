import { err, ok, type Result } from "../../shared/model/result.ts";
import type { InvalidArguments } from "../../shared/model/tool-arguments.ts";
import { invalidArguments } from "../../shared/model/tool-arguments.ts";
import { normalizeRunArguments, type RunRequest } from "./run-request.ts";

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
  if (surviveReload && isAgent)
    return err(
      invalidArguments("/bg", [
        `--survive-reload is only for shell tasks: an agent run cannot be reattached with its telemetry; drop --agent or --survive-reload. ${BG_USAGE}`,
      ]),
    );
  return ok({
    command,
    isAgent,
    ...(name === undefined || name.trim() === "" ? {} : { name: name.trim() }),
    ...(surviveReload ? { surviveReload: true as const } : {}),
  });
}

/** How bg_run's fields read on a /bg line. */
const WORDING: Readonly<Record<string, string>> = { name: "--name", command: "the command" };

/**
 * The task request a `/bg` line stands for, with every problem worded in /bg's own terms (its flags and the
 * command), never in bg_run's field names, since the user typed /bg.
 */
export function bgRunRequest(input: string): Result<RunRequest, InvalidArguments> {
  const line = parseBgCommandLine(input);
  if (!line.ok) return line;
  const request = normalizeRunArguments({ ...line.value, notifyOnCompletion: true, triggerOnCompletion: false });
  if (request.ok) return request;
  const reworded = request.error.problems.map(
    (problem) => `${problem.replace(/'(\w+)'/g, (quoted, field: string) => WORDING[field] ?? quoted)}. ${BG_USAGE}`,
  );
  return err(invalidArguments("/bg", reworded));
}

function takeValue(text: string): { value: string; rest: string } | undefined {
  const trimmed = text.trimStart();
  const quoted = /^"([^"]*)"|^'([^']*)'/.exec(trimmed);
  if (quoted) return { value: quoted[1] ?? quoted[2] ?? "", rest: trimmed.slice(quoted[0].length).trimStart() };
  const word = /^(\S+)/.exec(trimmed)?.[1];
  return word === undefined ? undefined : { value: word, rest: trimmed.slice(word.length).trimStart() };
}

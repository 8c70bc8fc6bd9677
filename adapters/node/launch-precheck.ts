import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { LaunchSpec } from "../../ports/process-launcher.ts";
import { errnoCode } from "./errno.ts";

/** The program and arguments handed to spawn (always with `shell: false`). */
export function commandLine(spec: LaunchSpec): { readonly file: string; readonly args: readonly string[] } {
  const command = spec.command;
  if (command.kind === "argv") return { file: command.file, args: command.args };
  // Never `-lc`: a login shell would read profile files and change the environment we were given.
  return { file: command.shell ?? process.env.SHELL ?? "/bin/sh", args: ["-c", command.command] };
}

/**
 * Why the launch cannot work, found before forking so the caller gets a precise message. Only what
 * can be known for sure is checked: the working directory, and a program named by path. A bare
 * name is left to the PATH search of spawn itself; its failure is still reported synchronously.
 */
export function launchProblem(spec: LaunchSpec): string | undefined {
  const cwdProblem = pathProblem(spec.cwd, "directory");
  if (cwdProblem !== undefined) return `working directory ${JSON.stringify(spec.cwd)} ${cwdProblem}`;
  const { file } = commandLine(spec);
  if (!file.includes("/")) return undefined;
  const full = isAbsolute(file) ? file : resolve(spec.cwd, file);
  const fileProblem = pathProblem(full, "executable");
  return fileProblem === undefined ? undefined : `program ${JSON.stringify(file)} ${fileProblem}`;
}

function pathProblem(path: string, want: "directory" | "executable"): string | undefined {
  try {
    const stat = statSync(path);
    if (want === "directory") return stat.isDirectory() ? undefined : "is not a directory (ENOTDIR)";
    if (stat.isDirectory()) return "is a directory (EISDIR)";
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (error) {
    const code = errnoCode(error) ?? "unknown error";
    return code === "ENOENT" ? "does not exist (ENOENT)" : `cannot be used (${code})`;
  }
}

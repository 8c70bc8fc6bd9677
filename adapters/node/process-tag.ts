import { randomBytes } from "node:crypto";
import type { LaunchCommand } from "../../ports/process-launcher.ts";
import type { ShellExitPolicy, SupervisedLaunch, SupervisionFiles } from "../../ports/task-survival.ts";

/**
 * The environment variable that marks every process a launch started. Descendants inherit it even
 * after setsid, a double fork or `nohup … &`, so they can be found by reading /proc/<pid>/environ.
 * Its value is a colon-separated list: a task started inside another task keeps its ancestors' tags.
 */
export const PROCESS_TAG_VARIABLE = "PI_BG_PROCESS_TAG";

/** A launch under a supervisor, with a fresh tag added to its environment (TaskSupervisor.wrap). */
export function taggedLaunch(
  command: LaunchCommand,
  env: Readonly<Record<string, string>>,
  files: SupervisionFiles,
  policy: ShellExitPolicy,
): SupervisedLaunch {
  const processTag = newProcessTag();
  return { command, env: taggedEnv(env, processTag), processTag, files, policy };
}

/** 128 random bits as hex: unguessable, so a match is never a coincidence. */
export function newProcessTag(): string {
  return randomBytes(16).toString("hex");
}

/** `env` plus the tag, appended to any tag list the environment already carries. */
export function taggedEnv(env: Readonly<Record<string, string>>, tag: string): Record<string, string> {
  const inherited = env[PROCESS_TAG_VARIABLE];
  const value = inherited === undefined || inherited === "" ? tag : `${inherited}:${tag}`;
  return { ...env, [PROCESS_TAG_VARIABLE]: value };
}

const PREFIX = Buffer.from(`${PROCESS_TAG_VARIABLE}=`);

/** Whether a NUL-separated environment block (as /proc/<pid>/environ holds it) carries `tag`. */
export function environCarriesTag(environ: Uint8Array, tag: string): boolean {
  const block = Buffer.from(environ.buffer, environ.byteOffset, environ.byteLength);
  for (let start = 0; start < block.length; ) {
    const nul = block.indexOf(0, start);
    const end = nul < 0 ? block.length : nul;
    if (end - start >= PREFIX.length && block.subarray(start, start + PREFIX.length).equals(PREFIX)) {
      const value = block.subarray(start + PREFIX.length, end).toString("latin1");
      if (value.split(":").includes(tag)) return true;
    }
    start = end + 1;
  }
  return false;
}

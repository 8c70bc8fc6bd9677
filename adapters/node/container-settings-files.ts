import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import {
  type ContainerSettings,
  type ContainerSettingsError,
  type ContainerSettingsFile,
  containerSettings,
  parseContainerSettings,
} from "../../domain/tasks/model/container-settings.ts";
import { errnoCode } from "./errno.ts";
import { openOwnedFile } from "./owned-file.ts";

/** The config file names: the user's in the Pi agent dir, the project's under `.pi/`. */
export const CONTAINER_SETTINGS_FILE = "bg-containers.json";
const MAX_BYTES = 64 * 1024;

/**
 * Reads the container settings afresh (so an edit applies to the next task): `<agentDir>/bg-containers.json`,
 * then `<cwd>/.pi/bg-containers.json`, which may only narrow them. The project file is opened as the package
 * opens its own files under `.pi/` (no symlink, a regular file, one link); a missing file adds nothing.
 */
export function containerSettingsFiles(
  agentDir: string,
  cwd: string,
): () => Promise<Result<ContainerSettings, ContainerSettingsError>> {
  const userPath = join(agentDir, CONTAINER_SETTINGS_FILE);
  const projectPath = join(cwd, ".pi", CONTAINER_SETTINGS_FILE);
  return async () => {
    const user = await readUserFile(userPath);
    if (!user.ok) return user;
    const project = await readProjectFile(projectPath);
    if (!project.ok) return project;
    return containerSettings(user.value, project.value, projectPath);
  };
}

type Read = Result<ContainerSettingsFile | undefined, ContainerSettingsError>;

async function readUserFile(path: string): Promise<Read> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    return errnoCode(error) === "ENOENT" ? ok(undefined) : err(unreadable(path, error));
  }
  return bytes.length > MAX_BYTES ? err(unreadable(path, "larger than 64 KiB")) : parseContainerSettings(bytes, path);
}

async function readProjectFile(path: string): Promise<Read> {
  const opened = await openOwnedFile(path, "read");
  if (!opened.ok) return opened.error.osCode === "ENOENT" ? ok(undefined) : err(unreadable(path, opened.error.message));
  try {
    if (opened.value.size > MAX_BYTES) return err(unreadable(path, "larger than 64 KiB"));
    return parseContainerSettings(await opened.value.handle.readFile(), path);
  } finally {
    await opened.value.handle.close();
  }
}

function unreadable(path: string, cause: unknown): ContainerSettingsError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return { code: "container_config_invalid", message: `${path} cannot be read (${why}); no task was started` };
}

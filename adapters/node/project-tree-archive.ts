import { join } from "node:path";

/**
 * The project tree as a tar stream that unpacks at the same absolute path (`putArchive` at `/`), every entry
 * owned by the task's `uid:gid` so the command can change its copy. `.pi/` is left out: it is this host's own
 * state (task outputs, settings), not the project's. Symbolic links stay links (nothing outside the tree is
 * read through them); sockets are skipped; a file that cannot be read fails the stream, naming it.
 */
export async function projectTreeArchive(cwd: string, user: string): Promise<NodeJS.ReadableStream> {
  const { pack } = await import("tar-fs");
  const [uid, gid] = user.split(":").map(Number);
  const root = cwd.replace(/^\/+/, "").replace(/\/+$/, "");
  const state = join(cwd, ".pi");
  const archive = pack(cwd, {
    ignore: (name) => name === state,
    map: (header) => ({ ...header, name: `${root}/${header.name}`, uid: uid ?? 0, gid: gid ?? 0 }),
  });
  return archive as unknown as NodeJS.ReadableStream; // a streamx stream: pipeable, which is all the client needs
}

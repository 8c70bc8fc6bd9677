import { readlinkSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Every file a Pi read tool may open for the `path` argument a model gave, as realpaths. Mirrors Pi's own
 * resolution (core/tools/path-utils.js in 0.73.1 and 1.6.0): unicode spaces become spaces, a leading `@` is
 * dropped, `~` is the home directory, 1.6 also takes `file://` URLs, and `read` tries the macOS variants
 * (narrow no-break space before AM/PM, NFD, curly apostrophe) of a path that does not exist. Every
 * interpretation is returned, so the check holds whichever one the running Pi picks.
 */
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

export function readPathSpellings(raw: string, cwd: string, home: string): string[] {
  const normalised = raw.replace(UNICODE_SPACES, " ");
  const stripped = normalised.startsWith("@") ? normalised.slice(1) : normalised;
  const expanded = stripped === "~" ? home : stripped.startsWith("~/") ? join(home, stripped.slice(2)) : stripped;
  const interpretations = [expanded];
  if (/^file:\/\//.test(expanded)) {
    try {
      interpretations.push(fileURLToPath(expanded));
    } catch {
      // not a valid file URL: Pi 1.6 would fail on it too; the literal interpretation is still checked
    }
  }
  const paths = new Set<string>();
  for (const p of interpretations) {
    const absolute = isAbsolute(p) ? resolve(p) : resolve(cwd, p);
    const nfd = absolute.normalize("NFD");
    for (const variant of [absolute, absolute.replace(/ (AM|PM)\./gi, "\u202F$1."), nfd, curly(absolute), curly(nfd)])
      paths.add(realpathOfPossiblyMissing(variant));
  }
  return [...paths];
}

const curly = (p: string): string => p.replace(/'/g, "\u2019");

/**
 * Where the kernel takes `path` (absolute, normalised): each symlink replaced by its link text, one component at
 * a time, with the components that do not exist kept as written. For an existing path this is its realpath;
 * unlike realpath it also places a /proc link to a deleted file, a pipe or a socket, which the kernel opens all
 * the same, at the text it points to (`/x/secret (deleted)`, `/proc/<pid>/fd/pipe:[7]`). A loop opens nothing.
 */
export function realpathOfPossiblyMissing(path: string): string {
  let done = "/";
  const todo = path.split("/");
  for (let links = 0; todo.length > 0; ) {
    const name = todo.shift() as string;
    if (name === "" || name === ".") continue;
    const next = join(done, name);
    let target: string;
    try {
      target = readlinkSync(next);
    } catch {
      done = next; // not a link, or not there
      continue;
    }
    if (++links > 40) return join(next, ...todo);
    todo.unshift(...target.split("/"));
    if (isAbsolute(target)) done = "/";
  }
  return done;
}

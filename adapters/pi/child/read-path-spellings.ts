import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
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

/** The realpath of `path`, or for a path that does not exist the realpath of its nearest existing ancestor joined with the rest. */
export function realpathOfPossiblyMissing(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    if (existsSync(at) || at === dirname(at)) {
      try {
        return join(realpathSync(at), ...rest.reverse());
      } catch {
        return join(at, ...rest.reverse()); // a dangling or looping link: nothing there to open
      }
    }
    rest.push(basename(at));
  }
}

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import type { ImportFact } from "./import-rules.ts";

/** The repository's layered source files and their imports, as the architecture tests read them. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const LAYERED = ["domain", "ports", "adapters", "composition", "contract-tests"];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : walk(full);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [full] : [];
  });
}

export function importsOf(file: string, source: string): ImportFact[] {
  // The compiler's own pre-processor: real imports only, never text inside strings or comments.
  return ts.preProcessFile(source, true, true).importedFiles.map(({ fileName: specifier }) => {
    const resolved = specifier.startsWith(".")
      ? normalize(join(dirname(file), specifier))
          .split("\\")
          .join("/")
      : undefined;
    return { file, specifier, resolved };
  });
}

/** Repository-relative paths with forward slashes. */
export const layeredFiles: readonly string[] = LAYERED.flatMap((dir) => walk(join(root, dir))).map((f) =>
  relative(root, f).split("\\").join("/"),
);

export const readSource = (file: string): string => readFileSync(join(root, file), "utf8");

const resolveFrom = (file: string, specifier: string): string =>
  normalize(join(dirname(file), specifier))
    .split("\\")
    .join("/");

/** A file inside node_modules/ is a package's, judged like an import of that package. */
function pathFact(file: string, specifier: string): ImportFact {
  const resolved = resolveFrom(file, specifier);
  const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(resolved)?.[1];
  return pkg === undefined ? { file, specifier, resolved, kind: "path" } : { file, specifier: pkg, kind: "path" };
}

/** `new URL(x, import.meta.url)` calls: the literal file references, and the text of any that is not a literal. */
export function pathReferencesOf(file: string, source: string): { facts: ImportFact[]; nonLiteral: string[] } {
  const facts: ImportFact[] = [];
  const nonLiteral: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "URL") {
      const [target, base] = node.arguments ?? [];
      if (target !== undefined && base !== undefined && base.getText(sf) === "import.meta.url") {
        if (!ts.isStringLiteral(target) && !ts.isNoSubstitutionTemplateLiteral(target))
          nonLiteral.push(target.getText(sf));
        else if (target.text.startsWith(".") && !/(^|\/)\.{0,2}$/.test(target.text))
          facts.push(pathFact(file, target.text));
      }
    }
    ts.forEachChild(node, visit);
  };
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  visit(sf);
  return { facts, nonLiteral };
}

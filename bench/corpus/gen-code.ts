import { camel, capitalize, fill, hexString, repeat, type Generator } from "./fill.ts";
import type { Prng } from "./prng.ts";
import { ENGLISH_CONTENT_WORDS, ENGLISH_FUNCTION_WORDS, IDENT_PARTS } from "./words-english.ts";

const TS_TYPES = ["string", "number", "boolean", "bigint", "unknown", "readonly string[]", "Uint8Array", "Map<string, number>", "Promise<void>"];

const ident = (rng: Prng) => camel(rng, IDENT_PARTS, rng.int(1, 3));
const typeName = (rng: Prng) => capitalize(camel(rng, IDENT_PARTS, rng.int(1, 3)));
const phrase = (rng: Prng, n: number) => repeat(n, () => rng.zipf(rng.chance(0.5) ? ENGLISH_FUNCTION_WORDS : ENGLISH_CONTENT_WORDS)).join(" ");

function tsExpression(rng: Prng, depth = 0): string {
  if (depth > 2) return rng.chance(0.5) ? ident(rng) : String(rng.int(0, 4096));
  switch (rng.weighted([3, 2, 2, 1, 1, 1])) {
    case 0:
      return `${ident(rng)}.${ident(rng)}`;
    case 1:
      return `${ident(rng)}(${repeat(rng.int(0, 3), () => tsExpression(rng, depth + 1)).join(", ")})`;
    case 2:
      return `${tsExpression(rng, depth + 1)} ${rng.pick(["+", "-", "*", "===", "!==", "<=", ">=", "&&", "||", "??"])} ${tsExpression(rng, depth + 1)}`;
    case 3:
      return JSON.stringify(phrase(rng, rng.int(1, 6)));
    case 4:
      return `\`${phrase(rng, 2)} \${${ident(rng)}}\``;
    default:
      return `{ ${repeat(rng.int(1, 3), () => `${ident(rng)}: ${tsExpression(rng, depth + 1)}`).join(", ")} }`;
  }
}

function tsStatement(rng: Prng, indent: string): string {
  switch (rng.weighted([4, 2, 2, 1, 1])) {
    case 0:
      return `${indent}const ${ident(rng)} = ${tsExpression(rng)};`;
    case 1:
      return `${indent}if (${tsExpression(rng)}) return ${tsExpression(rng)};`;
    case 2:
      return `${indent}// ${capitalize(phrase(rng, rng.int(3, 12)))}.`;
    case 3:
      return `${indent}for (const ${ident(rng)} of ${ident(rng)}) {\n${indent}  ${ident(rng)}.push(${tsExpression(rng)});\n${indent}}`;
    default:
      return `${indent}throw new Error(\`${phrase(rng, 4)}: \${${ident(rng)}}\`);`;
  }
}

export function typescriptSnippet(rng: Prng): string {
  const name = typeName(rng);
  switch (rng.weighted([2, 3, 1, 1])) {
    case 0:
      return `export interface ${name} {\n${repeat(rng.int(2, 8), () => `  readonly ${ident(rng)}${rng.chance(0.2) ? "?" : ""}: ${rng.pick(TS_TYPES)};`).join("\n")}\n}\n`;
    case 1: {
      const params = repeat(rng.int(0, 4), () => `${ident(rng)}: ${rng.pick(TS_TYPES)}`).join(", ");
      const doc = rng.chance(0.5) ? `/** ${capitalize(phrase(rng, rng.int(4, 16)))}. */\n` : "";
      return `${doc}export function ${ident(rng)}(${params}): ${rng.pick(TS_TYPES)} {\n${repeat(rng.int(1, 8), () => tsStatement(rng, "  ")).join("\n")}\n}\n`;
    }
    case 2:
      return `import { ${repeat(rng.int(1, 4), () => ident(rng)).join(", ")} } from "./${camel(rng, IDENT_PARTS, 2).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts";\n`;
    default:
      return `export type ${name} = ${repeat(rng.int(2, 5), () => JSON.stringify(ident(rng).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))).join(" | ")};\n`;
  }
}

export const typescriptCode: Generator = (rng, target) => fill(target, () => `${typescriptSnippet(rng)}\n`);

/** Minified JavaScript: one long line, short names, no insignificant whitespace. */
export const minifiedJs: Generator = (rng, target) =>
  fill(target, () => {
    const v = () => String.fromCharCode(97 + rng.int(0, 25)) + (rng.chance(0.4) ? String.fromCharCode(65 + rng.int(0, 25)) : "");
    const parts = [
      `function ${v()}(${v()},${v()}){return ${v()}.${ident(rng)}(${v()})?${v()}:${rng.int(0, 999)}}`,
      `var ${v()}=${JSON.stringify(phrase(rng, rng.int(1, 5)))},${v()}=[${repeat(rng.int(1, 6), () => rng.int(0, 65535)).join(",")}];`,
      `${v()}.prototype.${ident(rng)}=function(){this.${v()}=!0;for(var ${v()}=0;${v()}<this.${v()}.length;${v()}++)this.${v()}[${v()}]&&this.${v()}[${v()}]();};`,
      `!function(${v()}){"use strict";${v()}.exports={${ident(rng)}:${v()},${ident(rng)}:${v()}}}(${v()});`,
      `const ${v()}=(${v()})=>${v()}===void 0?null:{...${v()},${ident(rng)}:${v()}&${rng.int(1, 255)}};`,
    ];
    return rng.pick(parts);
  });

function jsonValue(rng: Prng, depth: number): unknown {
  const kind = depth > 3 ? rng.weighted([3, 2, 1, 1, 0, 0]) : rng.weighted([3, 2, 1, 1, 1, 1]);
  switch (kind) {
    case 0:
      return rng.chance(0.3) ? `${phrase(rng, rng.int(3, 20))}\n${phrase(rng, rng.int(2, 8))} "${ident(rng)}"` : phrase(rng, rng.int(1, 6));
    case 1:
      return rng.chance(0.5) ? rng.int(-1000, 1_000_000) : Number((rng.next() * 1000).toFixed(rng.int(1, 6)));
    case 2:
      return rng.chance(0.5);
    case 3:
      return rng.chance(0.5) ? null : hexString(rng, rng.pick([8, 12, 40, 64]));
    case 4:
      return repeat(rng.int(0, 6), () => jsonValue(rng, depth + 1));
    default:
      return Object.fromEntries(repeat(rng.int(1, 7), () => [rng.chance(0.5) ? ident(rng) : ident(rng).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), jsonValue(rng, depth + 1)]));
  }
}

export function jsonDocument(rng: Prng, indent: number): string {
  return JSON.stringify(jsonValue(rng, 0), null, indent);
}

export const jsonPretty: Generator = (rng, target) => fill(target, () => `${jsonDocument(rng, rng.pick([2, 2, 4, 1]))}\n`);
export const jsonCompact: Generator = (rng, target) => fill(target, () => `${jsonDocument(rng, 0)}\n`);

export const pythonCode: Generator = (rng, target) =>
  fill(target, () => {
    const fn = ident(rng).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const body = repeat(rng.int(1, 6), () => `    ${rng.pick([`${ident(rng).toLowerCase()} = ${rng.int(0, 99)}`, `if not ${ident(rng).toLowerCase()}:\n        raise ValueError(${JSON.stringify(phrase(rng, 4))})`, `return [x for x in ${ident(rng).toLowerCase()} if x]`, `# ${phrase(rng, 6)}`])}`);
    return `def ${fn}(self, ${ident(rng).toLowerCase()}: int = ${rng.int(0, 9)}) -> dict:\n    """${capitalize(phrase(rng, 8))}."""\n${body.join("\n")}\n\n`;
  });

export const yamlConfig: Generator = (rng, target) =>
  fill(target, () => `${ident(rng)}:\n${repeat(rng.int(1, 6), () => `  ${ident(rng)}: ${rng.pick([String(rng.int(0, 9999)), "true", "false", JSON.stringify(phrase(rng, 3)), `- ${ident(rng)}`])}`).join("\n")}\n`);

export const sqlQueries: Generator = (rng, target) =>
  fill(target, () => `SELECT ${repeat(rng.int(1, 5), () => ident(rng).toLowerCase()).join(", ")}\nFROM ${ident(rng).toLowerCase()} AS t\nWHERE t.${ident(rng).toLowerCase()} = '${phrase(rng, 2)}' AND t.id > ${rng.int(0, 99999)}\nORDER BY t.created_at DESC LIMIT ${rng.int(1, 500)};\n\n`);

export const htmlMarkup: Generator = (rng, target) =>
  fill(target, () => `<div class="${ident(rng)} ${ident(rng)}" data-id="${hexString(rng, 8)}">\n  <h2>${capitalize(phrase(rng, 4))}</h2>\n  <p>${capitalize(phrase(rng, rng.int(5, 25)))}. <a href="/${ident(rng)}?q=${rng.int(0, 999)}&amp;p=${ident(rng)}">${phrase(rng, 2)}</a></p>\n</div>\n`);

export const unifiedDiff: Generator = (rng, target) =>
  fill(target, () => {
    const file = `src/${ident(rng)}/${ident(rng)}.ts`;
    const lines = repeat(rng.int(3, 14), () => `${rng.pick([" ", " ", "+", "-"])}${tsStatement(rng, "  ")}`);
    return `diff --git a/${file} b/${file}\nindex ${hexString(rng, 7)}..${hexString(rng, 7)} 100644\n--- a/${file}\n+++ b/${file}\n@@ -${rng.int(1, 400)},${lines.length} +${rng.int(1, 400)},${lines.length} @@\n${lines.join("\n")}\n`;
  });

export const shellSession: Generator = (rng, target) =>
  fill(target, () => {
    const cmd = rng.pick([`npm run ${ident(rng)}`, `git log --oneline -n ${rng.int(1, 20)}`, `ls -la ./${ident(rng)}`, `grep -rn "${ident(rng)}" src/`, `cat ${ident(rng)}.json | jq .${ident(rng)}`]);
    const out = repeat(rng.int(1, 8), () => rng.pick([`${hexString(rng, 7)} ${capitalize(phrase(rng, 5))}`, `-rw-r--r-- 1 user staff ${rng.int(0, 99999)} Nov ${rng.int(1, 30)} 12:${rng.int(10, 59)} ${ident(rng)}.ts`, `src/${ident(rng)}.ts:${rng.int(1, 500)}:  ${tsStatement(rng, "")}`]));
    return `$ ${cmd}\n${out.join("\n")}\n`;
  });

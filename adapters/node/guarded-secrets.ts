import { readFileSync } from "node:fs";
import { join } from "node:path";
import { looksLikeCredential } from "./provider-credentials.ts";
import { userAgentDir } from "./user-agent-dir.ts";

/**
 * Every credential value the parent holds, for the egress guard: each variable that looks like a credential,
 * and every string of the agent dir's `auth.json` (API keys, OAuth access and refresh tokens). Only their salted
 * window hashes leave the parent; values under 12 bytes are not guarded.
 */
export function guardedSecretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && looksLikeCredential(name)) values.add(value);
  for (const value of stringsOf(readAuth(join(userAgentDir(env), "auth.json")))) values.add(value);
  return [...values];
}

function readAuth(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined; // no auth.json (environment keys only), or one Pi cannot read either
  }
}

function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(stringsOf);
}

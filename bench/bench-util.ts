import { execFileSync } from "node:child_process";

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

/** Wall time of a shell command, in ms. */
export function timeShell(command: string): number {
  const start = performance.now();
  execFileSync("sh", ["-c", command], { stdio: "ignore" });
  return performance.now() - start;
}

export const MiB = 1024 * 1024;

/** The number after `--name` on the command line, or `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

export function report(title: string, rows: Record<string, unknown>): void {
  console.log(`\n## ${title}`);
  for (const [k, v] of Object.entries(rows))
    console.log(`- ${k}: ${typeof v === "number" ? Number(v.toFixed(3)) : String(v)}`);
}

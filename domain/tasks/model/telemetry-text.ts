import type { TaskSnapshot, Unavailable } from "./task-snapshot.ts";

/** What the dock says for telemetry a task never sent: never a zero that looks like a measurement. */
export const NOT_REPORTED = "not reported by this background task";

type Measure = number | Unavailable;

/** 950 → "950", 42_500 → "42.5k", 200_000 → "200k", 1_250_000 → "1.25M". */
export function compactCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs < 1000) return String(Math.round(n));
  const [value, unit] = abs < 1_000_000 ? [n / 1000, "k"] : [n / 1_000_000, "M"];
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${Number(value.toFixed(digits))}${unit}`;
}

const measure = (value: Measure, render: (n: number) => string = compactCount): string =>
  value === "unavailable" ? "unavailable" : render(value);

export function modelText(task: TaskSnapshot): string {
  return task.model ?? NOT_REPORTED;
}

/** e.g. "21.0% of 200k (42k tokens)". */
export function contextText(task: TaskSnapshot): string {
  const usage = task.contextUsage;
  if (usage === undefined) return NOT_REPORTED;
  const percent = measure(usage.percent, (p) => `${p.toFixed(1)}%`);
  return `${percent} of ${measure(usage.contextWindow)} (${measure(usage.tokens)} tokens)`;
}

export function tokensText(task: TaskSnapshot): string {
  const usage = task.tokenUsage;
  if (usage === undefined) return NOT_REPORTED;
  const cost = usage.costTotal === "unavailable" ? "cost unavailable" : `$${usage.costTotal.toFixed(4)}`;
  return [
    `in ${measure(usage.input)}`,
    `out ${measure(usage.output)}`,
    `cache read ${measure(usage.cacheRead)}`,
    `cache write ${measure(usage.cacheWrite)}`,
    `total ${measure(usage.totalTokens)}`,
    cost,
  ].join(" · ");
}

/** e.g. "12 calls, 1 failed: bash 8, read 4". */
export function toolsText(task: TaskSnapshot, maxNames = 6): string {
  const usage = task.toolUsage;
  if (usage === undefined) return NOT_REPORTED;
  const names = Object.entries(usage.byName).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const shown = names.slice(0, maxNames).map(([name, count]) => `${name} ${count}`);
  const more = names.length > maxNames ? [`+${names.length - maxNames} more`] : [];
  const head = `${usage.total} ${usage.total === 1 ? "call" : "calls"}, ${usage.failed} failed`;
  return shown.length === 0 ? head : `${head}: ${[...shown, ...more].join(", ")}`;
}

// Runs every bench/*.bench.ts in turn (each in its own process, so one's memory does not skew another's).
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";

const only = process.argv.slice(2);
const benches = readdirSync(new URL(".", import.meta.url))
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
for (const file of benches) {
  console.log(`\n# ${file}`);
  execFileSync(process.execPath, ["--import", "tsx", new URL(file, import.meta.url).pathname], { stdio: "inherit" });
}

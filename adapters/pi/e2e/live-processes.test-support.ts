import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** A process as /proc shows it. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly cmdline: string;
  readonly cwd: string | undefined;
}

/** Live (non-zombie) processes, from /proc. */
export function processes(): ProcessInfo[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (state === "Z") return [];
        let dir: string | undefined;
        try {
          dir = readlinkSync(`/proc/${name}/cwd`);
        } catch {
          dir = undefined;
        }
        return [
          {
            pid: Number(name),
            ppid: Number(ppid),
            cmdline: readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " "),
            cwd: dir,
          },
        ];
      } catch {
        return []; // gone while we looked
      }
    });
}

import { spawn } from "node:child_process";
import { EXPECT_CLIENT_ENV } from "./expected-client.ts";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./scripted-model-server-cli.ts";

const cliPath = fileURLToPath(new URL("./scripted-model-server-cli.ts", import.meta.url));

describe("parseCliArgs", () => {
  it("reads --port, --log and --chunk-delay and rejects anything else", () => {
    expect(parseCliArgs(["--port", "0", "--log", "/tmp/x.jsonl", "--chunk-delay", "5"])).toEqual({
      ok: true,
      options: { port: 0, logPath: "/tmp/x.jsonl", defaultChunkDelayMs: 5 },
    });
    expect(parseCliArgs(["--port", "-1"])).toEqual({
      ok: false,
      message: "--port needs a non-negative integer, got '-1'",
    });
    expect(parseCliArgs(["--log"])).toEqual({ ok: false, message: "--log needs a value" });
    expect(parseCliArgs(["--verbose", "1"]).ok).toBe(false);
  });

  it("reads --realistic P and --seed N in either order, refusing what is not a probability", () => {
    const realistic = { ok: true, options: { realistic: { probability: 0.35, seed: 7 } } };
    expect(parseCliArgs(["--realistic", "0.35", "--seed", "7"])).toEqual(realistic);
    expect(parseCliArgs(["--seed", "7", "--realistic", "0.35"])).toEqual(realistic);
    expect(parseCliArgs(["--realistic", "1"])).toEqual({
      ok: true,
      options: { realistic: { probability: 1, seed: 1 } },
    });
    expect(parseCliArgs(["--realistic", "35%"]).ok).toBe(false);
    expect(parseCliArgs(["--realistic", "1.5"]).ok).toBe(false);
    expect(parseCliArgs(["--seed", "7"])).toEqual({ ok: false, message: "--seed needs --realistic P" });
  });
});

describe("scripted-model-server-cli as a process", () => {
  it("prints its baseUrl, serves /__enqueue'd replies, logs requests and exits 0 on SIGTERM", async () => {
    const logPath = join(mkdtempSync(join(tmpdir(), "scripted-cli-")), "requests.jsonl");
    const { [EXPECT_CLIENT_ENV]: _rawHttpHere, ...env } = process.env;
    const child = spawn(process.execPath, ["--import", "tsx", cliPath, "--log", logPath], {
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      const firstLine = await new Promise<string>((resolve, reject) => {
        let text = "";
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
          const newline = text.indexOf("\n");
          if (newline !== -1) resolve(text.slice(0, newline));
        });
        child.once("exit", (code) => reject(new Error(`cli exited early with ${String(code)}`)));
      });
      const { baseUrl } = JSON.parse(firstLine) as { baseUrl: string };
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const origin = baseUrl.slice(0, -"/v1".length);
      const enqueued = await fetch(`${origin}/__enqueue`, {
        method: "POST",
        body: JSON.stringify([{ text: "from the queue" }]),
      });
      expect(enqueued.status).toBe(200);
      const completion = await fetch(`${baseUrl}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "scripted-a", stream: false, messages: [{ role: "user", content: "hello" }] }),
      });
      const json = (await completion.json()) as { choices: [{ message: { content: string } }] };
      expect(json.choices[0].message.content).toBe("from the queue");
      const listed = (await (await fetch(`${origin}/__requests`)).json()) as { lastUserText: string }[];
      expect(listed.map((r) => r.lastUserText)).toEqual(["hello"]);
      expect(readFileSync(logPath, "utf8").trim().split("\n")).toHaveLength(1);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});

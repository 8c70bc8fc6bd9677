import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxText, fauxToolCall } from "@mariozechner/pi-ai";
import type { AgentSessionEvent } from "@mariozechner/pi-coding-agent";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, PACKAGE_ROOT, startSdkSession, type SdkSession } from "./sdk-session.ts";

type CustomMessage = {
  role: "custom";
  customType: string;
  content: string;
  details: { id: string; status: string; exitCode?: number; notified: boolean };
};

const isNotification = (e: AgentSessionEvent): boolean =>
  e.type === "message_end" &&
  (e.message as { role: string; customType?: string }).role === "custom" &&
  (e.message as CustomMessage).customType === "background-task-notification";

function notifications(s: SdkSession): CustomMessage[] {
  return s.events.filter(isNotification).map((e) => (e as { message: CustomMessage }).message);
}

function toolResultDetails(s: SdkSession, toolName: string): { task: { id: string; outputPath: string } } {
  const end = s.events.find((e) => e.type === "tool_execution_end" && e.toolName === toolName);
  if (end === undefined || end.type !== "tool_execution_end") throw new Error(`no ${toolName} result`);
  if (end.isError) throw new Error(`${toolName} failed: ${JSON.stringify(end.result)}`);
  return end.result.details as { task: { id: string; outputPath: string } };
}

let session: SdkSession | undefined;
afterEach(async () => {
  await session?.shutdown();
  session = undefined;
});

async function start(...replies: Parameters<SdkSession["reply"]>): Promise<{ s: SdkSession; cwd: string }> {
  const cwd = mkdtempSync(join(tmpdir(), "bg-sdk-"));
  const s = await startSdkSession({ cwd, agentDir: join(cwd, "agent"), extensionPaths: [PACKAGE_ROOT], replies });
  session = s;
  return { s, cwd };
}

describe("background tasks through the in-process Pi SDK", () => {
  it("bg_run returns a receipt at once, the completion notice wakes the agent with a new turn", async () => {
    const { s, cwd } = await start(
      fauxAssistantMessage(
        fauxToolCall("bg_run", {
          name: "greeter",
          command: "echo hello-from-task; echo oops >&2; exit 3",
          isAgent: false,
        }),
        { stopReason: "toolUse" },
      ),
      fauxAssistantMessage("started; waiting for the notification"),
      fauxAssistantMessage(fauxText("the task failed with exit 3")),
    );
    await s.session.prompt("run it in the background");
    const { task } = toolResultDetails(s, "bg_run");
    const notice = await s.waitFor(isNotification);
    expect(notice.type).toBe("message_end");
    // The follow-up turn: the model is called again after the notification.
    await s.waitFor(
      (e) => e.type === "message_end" && JSON.stringify(e.message).includes("the task failed with exit 3"),
    );
    const [n] = notifications(s);
    expect(n?.details.id).toBe(task.id);
    expect(n?.details.status).toBe("failed");
    expect(n?.details.exitCode).toBe(3);
    expect(n?.content).toContain("<status>failed</status>");
    expect(n?.content).toContain("hello-from-task");
    expect(readFileSync(join(cwd, task.outputPath), "utf8")).toBe("hello-from-task\noops\n");
    const metaPath = join(cwd, task.outputPath.replace(/\.output$/, ".json"));
    // The notified flag is persisted right after delivery; the follow-up turn may finish first.
    await expect.poll(() => JSON.parse(readFileSync(metaPath, "utf8")).notified, { timeout: 5000 }).toBe(true);
    expect(JSON.parse(readFileSync(metaPath, "utf8"))).toMatchObject({
      id: task.id,
      status: "failed",
      exitCode: 3,
      error: "Exited with code 3",
    });
  });

  it("bad arguments are refused with a typed error, and nothing is started or written", async () => {
    const { s, cwd } = await start(
      fauxAssistantMessage(fauxToolCall("bg_run", { name: "x", command: "   ", isAgent: "no", extra: 1 }), {
        stopReason: "toolUse",
      }),
      fauxAssistantMessage("ok"),
    );
    await s.session.prompt("go");
    const end = s.events.find((e) => e.type === "tool_execution_end");
    expect(end?.type === "tool_execution_end" && end.isError).toBe(true);
    const text = JSON.stringify(end?.type === "tool_execution_end" ? end.result : null);
    expect(text).toContain("invalid_arguments");
    expect(text).toContain("unknown key 'extra'");
    expect(text).toContain("'isAgent' must be boolean");
    expect(readdirSync(cwd)).not.toContain(".pi");
  });
});

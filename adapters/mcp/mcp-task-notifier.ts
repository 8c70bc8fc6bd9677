import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { LoggingLevel, LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { err, ok, type Result } from "../../domain/shared/model/result.ts";
import { NOTIFICATION_CUSTOM_TYPE, type TaskNotification } from "../../domain/tasks/model/notification.ts";
import type { TaskSnapshot } from "../../domain/tasks/model/task-snapshot.ts";
import type { NotifyError, TaskNotifier } from "../../ports/task-notifier.ts";

/** The `logger` of every completion notice, so a client can tell them from other log messages. */
export const MCP_NOTIFICATION_LOGGER = "pi-background-tasks";

/**
 * Delivers completion notices as MCP `notifications/message` (logging) with the notice itself as `data`.
 * They are sent whatever logging level the client chose: a completion notice is the result the client is
 * waiting for, not log chatter. A client that ignores them still has bg_wait and bg_status.
 */
export class McpTaskNotifier implements TaskNotifier {
  constructor(private readonly server: Pick<Server, "notification">) {}

  async deliver(notification: TaskNotification): Promise<Result<void, NotifyError>> {
    const params: LoggingMessageNotification["params"] = {
      level: levelOf(notification.snapshot),
      logger: MCP_NOTIFICATION_LOGGER,
      data: {
        customType: notification.customType,
        content: notification.content,
        snapshot: notification.snapshot,
        triggerTurn: notification.triggerTurn,
      },
    };
    try {
      await this.server.notification({ method: "notifications/message", params });
      return ok(undefined);
    } catch (cause) {
      return err({
        code: "notify_failed",
        message: `the MCP client could not be notified: ${cause instanceof Error ? cause.message : String(cause)}`,
      });
    }
  }
}

function levelOf(task: TaskSnapshot): LoggingLevel {
  return task.status === "completed" ? "notice" : "warning";
}

/** Reads a completion notice back out of a logging notification; undefined for any other message. */
export function taskNotificationFromLog(params: LoggingMessageNotification["params"]): TaskNotification | undefined {
  if (params.logger !== MCP_NOTIFICATION_LOGGER) return undefined;
  const data: unknown = params.data;
  if (typeof data !== "object" || data === null) return undefined;
  const record = data as Record<string, unknown>;
  if (
    record.customType !== NOTIFICATION_CUSTOM_TYPE ||
    typeof record.content !== "string" ||
    typeof record.triggerTurn !== "boolean"
  )
    return undefined;
  if (typeof record.snapshot !== "object" || record.snapshot === null) return undefined;
  return {
    customType: NOTIFICATION_CUSTOM_TYPE,
    content: record.content,
    snapshot: record.snapshot as TaskSnapshot,
    triggerTurn: record.triggerTurn,
  };
}

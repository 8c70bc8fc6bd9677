import { describe, expect, it } from "vitest";
import {
  RESEARCH_ENABLED_ENV as DOMAIN_RESEARCH_ENV,
  TOOL_CALL_LOG_ENV as DOMAIN_LOG_ENV,
} from "../../../domain/fusion/model/candidate-launch.ts";
import { toolCallLogFile } from "../../../domain/fusion/model/fusion-artifacts.ts";
import { WEB_FETCH_TOOL } from "../../../domain/fusion/model/fusion-workflow.ts";
import { FUSION_WEB_FETCH_TOOL } from "../../../domain/web/model/fusion-web-fetch-arguments.ts";
import { RESEARCH_ENABLED_ENV } from "./fusion-web-fetch-extension.ts";
import { TOOL_CALL_LOG_ENV } from "./tool-audit-extension.ts";

/** The orchestrator (domain) and the child extensions (this folder) name the same protocol variables. */
describe("candidate child protocol", () => {
  it("both sides use the same environment variable names, tool name and log file name", () => {
    expect(DOMAIN_LOG_ENV).toBe(TOOL_CALL_LOG_ENV);
    expect(DOMAIN_RESEARCH_ENV).toBe(RESEARCH_ENABLED_ENV);
    expect(WEB_FETCH_TOOL).toBe(FUSION_WEB_FETCH_TOOL);
    expect(toolCallLogFile("candidate-2.attempt-1")).toBe("candidate-2.attempt-1.tool-calls.jsonl");
  });
});

import { describe, expect, it } from "vitest";
import { clientExpectationFromEnv, clientMismatch } from "./expected-client.ts";

const pi1 = { node: "v22.23.5", pi: "1.6.0" };
const pi0 = { node: "v20.20.2", pi: "0.73.1" };

describe("the lane's client check", () => {
  it("accepts a model call from the lane's Pi and Node", () => {
    expect(
      clientMismatch(
        { "user-agent": "pi/1.6.0 (linux; node/v22.23.5; x64)", "x-stainless-runtime-version": "v22.23.5" },
        pi1,
      ),
    ).toBeUndefined();
    expect(
      clientMismatch({ "user-agent": "OpenAI/JS 6.26.0", "x-stainless-runtime-version": "v20.20.2" }, pi0),
    ).toBeUndefined();
  });

  it("names a call from the other Pi, or from another Node", () => {
    expect(
      clientMismatch({ "user-agent": "OpenAI/JS 6.26.0", "x-stainless-runtime-version": "v22.23.5" }, pi1),
    ).toContain("user-agent 'OpenAI/JS 6.26.0'");
    expect(
      clientMismatch(
        { "user-agent": "pi/1.6.0 (linux; node/v22.23.5; x64)", "x-stainless-runtime-version": "v22.23.5" },
        pi0,
      ),
    ).toContain("this lane runs Pi 0.73.1 on Node v20.20.2");
    expect(
      clientMismatch({ "user-agent": "pi/1.5.0 (linux)", "x-stainless-runtime-version": "v22.23.5" }, pi1),
    ).toBeDefined();
    expect(
      clientMismatch({ "user-agent": "pi/1.6.0 (linux)", "x-stainless-runtime-version": "v20.20.2" }, pi1),
    ).toContain("on Node v20.20.2");
  });

  it("leaves a request without the OpenAI client's headers (a test's own fetch) alone", () => {
    expect(clientMismatch({ "user-agent": "node" }, pi1)).toBeUndefined();
  });

  it("reads the lane from PI_BG_TEST_EXPECT_CLIENT and refuses a malformed one", () => {
    expect(clientExpectationFromEnv({})).toBeUndefined();
    expect(clientExpectationFromEnv({ PI_BG_TEST_EXPECT_CLIENT: JSON.stringify(pi1) })).toEqual(pi1);
    expect(() => clientExpectationFromEnv({ PI_BG_TEST_EXPECT_CLIENT: "{}" })).toThrow(
      "PI_BG_TEST_EXPECT_CLIENT must be",
    );
  });
});

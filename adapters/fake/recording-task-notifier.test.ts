import { describeTaskNotifierContract } from "../../contract-tests/task-notifier.contract.ts";
import { RecordingTaskNotifier } from "./recording-task-notifier.ts";

describeTaskNotifierContract("RecordingTaskNotifier", {
  accepting: async () => {
    const notifier = new RecordingTaskNotifier();
    return { notifier, received: async () => [...notifier.delivered] };
  },
  refusing: async () => ({ notifier: new RecordingTaskNotifier("the host is gone"), received: async () => [] }),
});

import { describeReleaseRegistryContract } from "../../contract-tests/release-registry.contract.ts";
import { FakeReleaseRegistry } from "./fake-release-registry.ts";

describeReleaseRegistryContract("FakeReleaseRegistry", async (published) => {
  const registry = new FakeReleaseRegistry();
  for (const [name, latest] of Object.entries(published)) registry.publish(name, latest);
  return { registry, close: async () => undefined };
});

/** Processes die (and other effects land) asynchronously; allow them a bounded moment. */
export async function expectEventually(check: () => Promise<boolean>, limitMs = 5_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition still false after the allowed time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

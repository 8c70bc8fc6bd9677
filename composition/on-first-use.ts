/** A value created by its first `get()` (typically behind a dynamic `import()`), shared by every later caller. */
export class OnFirstUse<T> {
  private created: Promise<T> | undefined;

  constructor(private readonly create: () => Promise<T>) {}

  get(): Promise<T> {
    this.created ??= this.create();
    return this.created;
  }

  /** The value if something already asked for it, for cleanup; undefined if it was never needed or never came to be. */
  async ifCreated(): Promise<T | undefined> {
    // A creation that failed was reported to the caller that asked for it; there is nothing to clean up.
    return this.created?.catch(() => undefined);
  }
}

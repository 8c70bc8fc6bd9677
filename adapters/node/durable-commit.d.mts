/** See durable-commit.mjs: temp file, fsync, rename, directory fsync; the rename is the commit. */
export function commitFile(path: string, text: string): Promise<void>;

/** See durable-commit.mjs: the file created empty now (throws if the path exists), written once by `commit`. */
export function reserveRecord(path: string): { commit(text: string): Promise<void>; abandon(): void };

/** See durable-commit.mjs: temp file, fsync, rename, directory fsync; the rename is the commit. */
export function commitFile(path: string, text: string): Promise<void>;

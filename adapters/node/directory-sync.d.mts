/** See directory-sync.mjs: resolves once an fsync of `dir` that started after the call has completed. */
export function syncDirectory(dir: string): Promise<void>;

/**
 * When each HTTP session was last busy. A session with a request or an SSE stream still open is busy; one-shot
 * clients (an inspector call) never say goodbye, so sessions idle past a limit are closed to keep memory bounded.
 */
export class SessionActivity {
  readonly #sessions = new Map<string, { open: number; lastSeen: number }>();

  constructor(private readonly now: () => number) {}

  /** A request (or stream) of the session began; call the returned function when it ends. */
  begin(sessionId: string): () => void {
    const entry = this.#sessions.get(sessionId) ?? { open: 0, lastSeen: this.now() };
    entry.open++;
    this.#sessions.set(sessionId, entry);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.open--;
      entry.lastSeen = this.now();
    };
  }

  forget(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  /** Sessions with nothing open whose last activity ended at least `ms` ago. */
  idleFor(ms: number): string[] {
    const before = this.now() - ms;
    return [...this.#sessions].filter(([, s]) => s.open === 0 && s.lastSeen <= before).map(([id]) => id);
  }
}

/**
 * Conversation transcripts made of real text: a few sampled files become the tool results and
 * replies of a Pi session, rendered as the session JSONL (even indices) or as the markdown a
 * Fusion or delegate prompt shows (odd indices). The framing is written here; the text inside it
 * is not. Deterministic: transcript i always uses the same sources.
 */
interface Source {
  readonly id: string;
  readonly kind: string;
  readonly text: string;
}

const EXCERPT_CHARS = 24 * 1024;

function turnsOf(sources: readonly Source[], index: number): { ask: string; file: string; result: string; reply: string }[] {
  const n = sources.length;
  if (n === 0) return [];
  const turns = 3 + (index % 6);
  return Array.from({ length: turns }, (_, t) => {
    const source = sources[(index * 7919 + t * 104729) % n] as Source;
    const reply = sources[(index * 31 + t * 17 + 1) % n] as Source;
    const paragraph = reply.text.split(/\n\s*\n/).find((p) => p.trim().length > 80) ?? reply.text.slice(0, 400);
    return {
      ask: `Read ${source.id} and tell me what the ${source.kind} does before we change it.`,
      file: source.id,
      result: source.text.slice(0, EXCERPT_CHARS),
      reply: paragraph.slice(0, 1200),
    };
  });
}

export function transcriptOf(sources: readonly Source[], index: number): string {
  const turns = turnsOf(sources, index);
  if (index % 2 === 1) {
    return turns
      .map((t) => `### user\n\n${t.ask}\n\n### tool result (read ${t.file})\n\n\`\`\`\n${t.result}\n\`\`\`\n\n### assistant\n\n${t.reply}\n`)
      .join("\n");
  }
  const lines: string[] = [];
  let time = Date.UTC(2026, 0, 5, 9, 0, 0) + index * 3_600_000;
  let parent: string | null = null;
  const push = (message: Record<string, unknown>) => {
    const id = (lines.length * 2654435761 + index).toString(16).padStart(8, "0").slice(-8);
    time += 1500 + ((lines.length * 7) % 13) * 1000;
    lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(time).toISOString(), message: { ...message, timestamp: time } }));
    parent = id;
  };
  turns.forEach((t, i) => {
    const call = `call_${index}_${i}`;
    push({ role: "user", content: t.ask });
    push({ role: "assistant", content: [{ type: "toolCall", id: call, name: "read", arguments: { path: t.file } }], stopReason: "toolUse" });
    push({ role: "toolResult", toolCallId: call, toolName: "read", content: [{ type: "text", text: t.result }], isError: false });
    push({ role: "assistant", content: [{ type: "text", text: t.reply }], stopReason: "stop" });
  });
  return `${lines.join("\n")}\n`;
}

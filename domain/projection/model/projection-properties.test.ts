import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { projectConversation } from "./conversation-projection.ts";
import { buildFusionInput, type FusionInputSource } from "./fusion-input.ts";
import { verifyLedger } from "./ledger-verification.ts";
import { FUSION_COMMAND_POLICY, FUSION_TOOL_POLICY } from "./projection-policy.ts";
import type { ProjectionEntry } from "./projection-types.ts";
import { blocksOf, type SourceBlock, type SourceMessage } from "./source-message.ts";

/** Canaries use private-use characters that generated visible text never contains. */
const MARK = "\uE000";
const noMark = (s: string) => !s.includes(MARK);
const visible = fc.string({ unit: "binary", maxLength: 16 }).filter(noMark);
const filler = fc.string({ unit: "binary", maxLength: 8 }).filter(noMark);
const mime = fc.constantFrom("image/png", "image/jpeg", "image/webp");
const toolName = fc.constantFrom("read", "bash", "grep", "fusion_brainstorm", "bg_delegate");

type Skel =
  | {
      role: "user";
      asString: boolean;
      blocks: Array<{ k: "text"; t: string } | { k: "image"; mime: string; f: string }>;
    }
  | {
      role: "assistant";
      blocks: Array<{ k: "text"; t: string } | { k: "thinking"; f: string } | { k: "call"; name: string; f: string }>;
    }
  | {
      role: "toolResult";
      name: string;
      blocks: Array<{ k: "text"; f: string } | { k: "image"; mime: string; f: string }>;
    };

const skeleton: fc.Arbitrary<Skel> = fc.oneof(
  fc.record({
    role: fc.constant("user" as const),
    asString: fc.boolean(),
    blocks: fc.array(
      fc.oneof(
        fc.record({ k: fc.constant("text" as const), t: visible }),
        fc.record({ k: fc.constant("image" as const), mime, f: filler }),
      ),
      { maxLength: 3 },
    ),
  }),
  fc.record({
    role: fc.constant("assistant" as const),
    blocks: fc.array(
      fc.oneof(
        fc.record({ k: fc.constant("text" as const), t: visible }),
        fc.record({ k: fc.constant("thinking" as const), f: filler }),
        fc.record({ k: fc.constant("call" as const), name: toolName, f: filler }),
      ),
      { maxLength: 4 },
    ),
  }),
  fc.record({
    role: fc.constant("toolResult" as const),
    name: toolName,
    blocks: fc.array(
      fc.oneof(
        fc.record({ k: fc.constant("text" as const), f: filler }),
        fc.record({ k: fc.constant("image" as const), mime, f: filler }),
      ),
      { maxLength: 3 },
    ),
  }),
);

interface Planted {
  readonly messages: SourceMessage[];
  readonly canaries: string[];
  readonly callIds: string[];
}

/** Turns a skeleton into messages, planting a unique canary inside every payload that must be omitted. */
function plant(skels: readonly Skel[]): Planted {
  const canaries: string[] = [];
  const callIds: string[] = [];
  const canary = (f: string) => {
    const c = `${MARK}C${canaries.length}${MARK}`;
    canaries.push(c);
    return `${f}${c}${f}`;
  };
  const messages = skels.map((s, i): SourceMessage => {
    if (s.role === "user") {
      const blocks = s.blocks.map(
        (b): SourceBlock =>
          b.k === "text" ? { type: "text", text: b.t } : { type: "image", mimeType: b.mime, data: canary(b.f) },
      );
      const only = blocks[0];
      return { role: "user", content: s.asString && blocks.length === 1 && only?.type === "text" ? only.text : blocks };
    }
    if (s.role === "assistant") {
      return {
        role: "assistant",
        content: s.blocks.map((b, j): SourceBlock => {
          if (b.k === "text") return { type: "text", text: b.t };
          if (b.k === "thinking") return { type: "thinking", thinking: canary(b.f) };
          const id = `call-${i}-${j}`;
          callIds.push(id);
          return {
            type: "toolCall",
            id,
            name: b.name,
            arguments: { z: canary(b.f), a: { n: j, deep: [canary(b.f)] } },
          };
        }),
      };
    }
    const content = s.blocks.map(
      (b): SourceBlock =>
        b.k === "text" ? { type: "text", text: canary(b.f) } : { type: "image", mimeType: b.mime, data: canary(b.f) },
    );
    return { role: "toolResult", toolCallId: `result-${i}`, toolName: s.name, content };
  });
  return { messages, canaries, callIds };
}

const conversation = fc.array(skeleton, { maxLength: 14 }).map(plant);

const source = (messages: SourceMessage[], extra: Partial<FusionInputSource> = {}): FusionInputSource => ({
  cwd: "/repo",
  systemPrompt: "system",
  policy: FUSION_COMMAND_POLICY,
  requestText: "go",
  messages,
  ...extra,
});

function build(s: FusionInputSource) {
  const built = buildFusionInput(s);
  if (!built.ok) throw new Error(built.error.message);
  return built.value;
}

/** Visible text as the source holds it, computed without the transform. */
function expectedVisibleText(messages: readonly SourceMessage[]): Array<[string, number, number, string]> {
  return messages.flatMap((m, src) =>
    m.role === "toolResult"
      ? []
      : blocksOf(m).flatMap(
          (b, blk): Array<[string, number, number, string]> =>
            b.type === "text" && b.text.length > 0 ? [[m.role === "user" ? "u" : "a", src, blk, b.text]] : [],
        ),
  );
}

describe("projection properties", () => {
  it("is deterministic, including over a JSON round trip of the source", () => {
    fc.assert(
      fc.property(conversation, ({ messages }) => {
        const first = build(source(messages));
        const again = build(source(JSON.parse(JSON.stringify(messages)) as SourceMessage[]));
        expect(again.inputJson).toBe(first.inputJson);
        expect(again.ledgerJson).toBe(first.ledgerJson);
      }),
    );
  });

  it("maps every ledger row exactly once and the ledger verifies", () => {
    fc.assert(
      fc.property(conversation, ({ messages }) => {
        const built = build(source(messages));
        const hits = new Array<number>(built.ledger.entries.length).fill(0);
        for (const entry of built.ledger.projection_map)
          for (const i of entry.ledger_indices) hits[i] = (hits[i] ?? 0) + 1;
        expect(hits.every((n) => n === 1)).toBe(true);
        expect(verifyLedger(built.input.conversation_projection, JSON.parse(built.ledgerJson)).ok).toBe(true);
      }),
    );
  });

  it("never lets a byte sequence of an omitted payload into the canonical input", () => {
    fc.assert(
      fc.property(conversation, ({ messages, canaries }) => {
        const bytes = Buffer.from(build(source(messages)).inputJson, "utf8");
        for (const c of canaries) expect(bytes.includes(Buffer.from(c, "utf8"))).toBe(false);
      }),
    );
  });

  it("round-trips visible text verbatim, in order, with its ordinals", () => {
    fc.assert(
      fc.property(conversation, ({ messages }) => {
        const built = build(source(messages));
        const projection = (JSON.parse(built.inputJson) as { conversation_projection: { entries: ProjectionEntry[] } })
          .conversation_projection;
        const markers = new Set(
          built.ledger.projection_map.flatMap((m) => (m.kind === "image_marker" ? [m.projection_index] : [])),
        );
        const texts = projection.entries.flatMap((e, i) =>
          e[0] === "t" && !markers.has(i) ? [[e[1], e[2], e[3], e[4]]] : [],
        );
        expect(texts).toEqual(expectedVisibleText(messages));
      }),
    );
  });

  it("accounts the exact UTF-8 bytes of every omitted payload", () => {
    fc.assert(
      fc.property(conversation, ({ messages }) => {
        const built = build(source(messages));
        const payloads = messages.flatMap((m) =>
          blocksOf(m).flatMap((b) => {
            if (b.type === "thinking") return [b.thinking];
            if (b.type === "image") return [b.data];
            if (b.type === "text" && m.role === "toolResult") return [b.text];
            return [];
          }),
        );
        const rowBytes = built.ledger.entries
          .filter((r) => r.kind !== "tool_call_arguments")
          .reduce((n, r) => n + r.payload_bytes, 0);
        expect(rowBytes).toBe(payloads.reduce((n, p) => n + Buffer.byteLength(p, "utf8"), 0));
      }),
    );
  });

  it("excludes the active call's message and its siblings, whatever ran first", () => {
    fc.assert(
      fc.property(conversation, filler, fc.boolean(), ({ messages }, f, siblingFirst) => {
        const secret = `${MARK}SIBLING${MARK}`;
        const batch: SourceMessage = {
          role: "assistant",
          content: [
            { type: "text", text: `visible-but-excluded ${f}` },
            { type: "toolCall", id: "sib", name: "bash", arguments: { cmd: secret } },
            { type: "toolCall", id: "active", name: "fusion_brainstorm", arguments: { prompt: "p" } },
          ],
        };
        const after: SourceMessage[] = siblingFirst
          ? [{ role: "toolResult", toolCallId: "sib", toolName: "bash", content: [{ type: "text", text: secret }] }]
          : [];
        const scoped = build(
          source([...messages, batch, ...after], { policy: FUSION_TOOL_POLICY, activeToolCallId: "active" }),
        );
        const baseline = projectConversation({ messages, policy: FUSION_COMMAND_POLICY });
        if (!baseline.ok) throw new Error(baseline.error.message);
        expect(scoped.inputJson.includes(secret)).toBe(false);
        expect(scoped.input.conversation_projection.branch_filter.active_tool_call_leaf_excluded).toBe(true);
        expect(scoped.input.conversation_projection.entries).toEqual(baseline.value.projection.entries);
        expect(scoped.ledger.root_sha256).toBe(baseline.value.ledger.root_sha256);
      }),
    );
  });
});

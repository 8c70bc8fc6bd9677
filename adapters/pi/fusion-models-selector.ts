import { truncateToWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui";
import {
  contextWindowShortfall,
  CURRENT_MODEL,
  FUSION_SLOTS,
  selectionOf,
  withSelection,
  type FusionModelsConfig,
  type FusionSlot,
} from "../../domain/fusion/model/fusion-models-config.ts";

/** Keys the selector understands; the TUI component maps raw terminal input onto these. */
export type SelectorKey =
  | { readonly kind: "up" | "down" | "pageUp" | "pageDown" | "enter" | "escape" | "backspace" }
  | { readonly kind: "text"; readonly text: string };

export type SelectorOutcome =
  | { readonly type: "save"; readonly config: FusionModelsConfig }
  | { readonly type: "cancel" };

export type Paint = (role: "accent" | "muted" | "dim" | "warning" | "text", text: string) => string;

interface Choice {
  readonly value: string;
  readonly unavailable: boolean;
}

const SLOT_LABELS: Readonly<Record<FusionSlot, string>> = {
  "candidate-1": "Candidate 1",
  "candidate-2": "Candidate 2",
  "candidate-3": "Candidate 3",
  evaluator: "Evaluator",
  merger: "Merger",
};
const ACTIONS = ["Save", "Cancel"] as const;
const VISIBLE_CHOICES = 12;

/**
 * The `/fusion-models` dialog as a plain state machine: a list of the five slots plus Save/Cancel, and
 * per slot a filterable list of `$current` and every available `provider/id`. A configured model that
 * is not available stays selectable but is marked, so opening the dialog never rewrites it silently.
 * A model whose context window is below Fusion's minimum is refused when it is picked, with the requirement.
 */
export class FusionModelsSelector {
  #draft: FusionModelsConfig;
  #row = 0;
  #editing: FusionSlot | undefined;
  #choice = 0;
  #filter = "";
  #refusal: string | undefined;
  readonly #available: readonly string[];
  readonly #windows: ReadonlyMap<string, number>;

  /** `available`: each model the host can call (`provider/id`) with its context window. */
  constructor(
    config: FusionModelsConfig,
    available: ReadonlyMap<string, number>,
    private readonly currentModel: string | undefined,
  ) {
    this.#draft = config;
    this.#available = [...available.keys()].sort();
    this.#windows = available;
  }

  get draft(): FusionModelsConfig {
    return this.#draft;
  }

  handle(key: SelectorKey): SelectorOutcome | undefined {
    return this.#editing === undefined ? this.#handleSlots(key) : this.#handleChoices(this.#editing, key);
  }

  lines(width: number, paint: Paint): string[] {
    const fit = (text: string): string => truncateToWidth(text, width);
    const border = paint("accent", "─".repeat(Math.max(0, width)));
    const out = [
      border,
      paint("accent", fit(" Fusion models")),
      paint("dim", fit(` current model: ${this.currentModel ?? "none"}`)),
      "",
    ];
    if (this.#editing === undefined) out.push(...this.#slotLines(fit, paint));
    else out.push(...this.#choiceLines(this.#editing, width, fit, paint));
    return [...out, border];
  }

  #handleSlots(key: SelectorKey): SelectorOutcome | undefined {
    const rows = FUSION_SLOTS.length + ACTIONS.length;
    if (key.kind === "escape") return { type: "cancel" };
    if (key.kind === "up") this.#row = (this.#row + rows - 1) % rows;
    else if (key.kind === "down") this.#row = (this.#row + 1) % rows;
    else if (key.kind === "enter") {
      const slot = FUSION_SLOTS[this.#row];
      if (slot === undefined)
        return ACTIONS[this.#row - FUSION_SLOTS.length] === "Save"
          ? { type: "save", config: this.#draft }
          : { type: "cancel" };
      this.#editing = slot;
      this.#filter = "";
      this.#choice = Math.max(
        0,
        this.#choices(slot).findIndex((c) => c.value === selectionOf(this.#draft, slot)),
      );
    }
    return undefined;
  }

  #handleChoices(slot: FusionSlot, key: SelectorKey): SelectorOutcome | undefined {
    const choices = this.#choices(slot);
    this.#refusal = undefined;
    const last = Math.max(0, choices.length - 1);
    if (key.kind === "escape") this.#editing = undefined;
    else if (key.kind === "up") this.#choice = Math.max(0, this.#choice - 1);
    else if (key.kind === "down") this.#choice = Math.min(last, this.#choice + 1);
    else if (key.kind === "pageUp") this.#choice = Math.max(0, this.#choice - VISIBLE_CHOICES);
    else if (key.kind === "pageDown") this.#choice = Math.min(last, this.#choice + VISIBLE_CHOICES);
    else if (key.kind === "enter") {
      const picked = choices[this.#choice];
      const window = picked === undefined ? undefined : this.#windows.get(picked.value);
      this.#refusal =
        picked === undefined || window === undefined ? undefined : contextWindowShortfall(picked.value, window);
      if (this.#refusal !== undefined) return undefined;
      if (picked !== undefined) this.#draft = withSelection(this.#draft, slot, picked.value);
      this.#editing = undefined;
    } else if (key.kind === "backspace" || key.kind === "text") {
      this.#filter = key.kind === "text" ? this.#filter + key.text : this.#filter.slice(0, -1);
      this.#choice = 0;
    }
    return undefined;
  }

  #choices(slot: FusionSlot): Choice[] {
    const configured = selectionOf(this.#draft, slot);
    const values = [CURRENT_MODEL, ...this.#available];
    const all: Choice[] = values.map((value) => ({ value, unavailable: false }));
    if (!values.includes(configured)) all.push({ value: configured, unavailable: true });
    const needle = this.#filter.toLowerCase();
    return needle === "" ? all : all.filter((c) => c.value.toLowerCase().includes(needle));
  }

  #isUnavailable(selection: string): boolean {
    return selection !== CURRENT_MODEL && !this.#available.includes(selection);
  }

  #slotLines(fit: (t: string) => string, paint: Paint): string[] {
    const lines = FUSION_SLOTS.map((slot, i) => {
      const selection = selectionOf(this.#draft, slot);
      const mark = this.#isUnavailable(selection) ? "  (unavailable)" : "";
      const text = fit(`${i === this.#row ? "> " : "  "}${SLOT_LABELS[slot].padEnd(12)} ${selection}${mark}`);
      return i === this.#row ? paint("accent", text) : mark !== "" ? paint("warning", text) : paint("text", text);
    });
    const actions = ACTIONS.map((label, j) => {
      const selected = FUSION_SLOTS.length + j === this.#row;
      return paint(selected ? "accent" : "muted", fit(`${selected ? "> " : "  "}[${label}]`));
    });
    return [...lines, "", ...actions, "", paint("dim", fit("↑↓ move • Enter choose • Esc cancel"))];
  }

  #choiceLines(slot: FusionSlot, width: number, fit: (t: string) => string, paint: Paint): string[] {
    const choices = this.#choices(slot);
    const start = Math.min(
      Math.max(0, this.#choice - Math.floor(VISIBLE_CHOICES / 2)),
      Math.max(0, choices.length - VISIBLE_CHOICES),
    );
    const shown = choices.slice(start, start + VISIBLE_CHOICES);
    const lines = [
      paint("text", fit(`${SLOT_LABELS[slot]} — filter: ${this.#filter === "" ? "(type to filter)" : this.#filter}`)),
    ];
    if (start > 0) lines.push(paint("dim", fit(`  ↑ ${start} more`)));
    for (const [offset, choice] of shown.entries()) {
      const selected = start + offset === this.#choice;
      const text = fit(
        `${selected ? "> " : "  "}${choice.value}${choice.unavailable ? "  (configured, unavailable)" : ""}`,
      );
      lines.push(selected ? paint("accent", text) : choice.unavailable ? paint("warning", text) : paint("text", text));
    }
    if (shown.length === 0) lines.push(paint("warning", fit("  no model matches")));
    // Wrapped, never cut: the refusal names the requirement the user has to meet.
    if (this.#refusal !== undefined)
      for (const line of wrapTextWithAnsi(`Not chosen: ${this.#refusal}`, Math.max(1, width - 2)))
        lines.push(paint("warning", `  ${line}`));
    const below = choices.length - start - shown.length;
    if (below > 0) lines.push(paint("dim", fit(`  ↓ ${below} more`)));
    lines.push("", paint("dim", fit("↑↓ PgUp PgDn move • type to filter • Enter pick • Esc back")));
    return lines;
  }
}

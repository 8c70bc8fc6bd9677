/** The part of Pi's Theme the task UI uses; Pi's Theme satisfies it, tests may pass a plain one. */
export type UiColor = "accent" | "muted" | "dim" | "text" | "success" | "error" | "warning" | "border" | "borderAccent";

export interface UiTheme {
  fg(color: UiColor, text: string): string;
  bold(text: string): string;
}

/** No styling at all: for tests that read the text, and for hosts without colours. */
export const PLAIN_THEME: UiTheme = { fg: (_color, text) => text, bold: (text) => text };

/** See output-placement.mjs; the types are output-layout.ts's. */
export interface OutputLayout {
  readonly cap: number;
  readonly headBytes: number;
  readonly ringStart: number; // physical
  readonly ringBytes: number;
}

export interface PhysicalSpan {
  readonly logicalStart: number;
  readonly physical: number;
  readonly length: number;
}

export const MARKER_BYTES: 160;
export function outputLayout(cap: number): OutputLayout;
export function ringIndex(layout: OutputLayout, logical: number): number;
export function placeWrite(layout: OutputLayout, produced: number, length: number): PhysicalSpan[];

/**
 * The slice of the DOM (domino, inside turndown) that our rules read. The project compiles without the
 * DOM lib, so turndown's element type is opaque here; rules view nodes through this interface.
 */
export interface DomNode {
  readonly nodeName: string;
  readonly nodeType: number;
  readonly childNodes: ArrayLike<DomNode>;
  readonly parentNode: DomNode | null;
  readonly textContent: string | null;
  getAttribute?(name: string): string | null;
}

export function domNode(node: unknown): DomNode {
  return node as DomNode;
}

export function childElements(node: DomNode): DomNode[] {
  return Array.from(node.childNodes).filter((child) => child.nodeType === 1);
}

export function attribute(node: DomNode, name: string): string | undefined {
  return node.getAttribute?.(name) ?? undefined;
}

export const REMOVED_ELEMENTS = ["script", "style", "noscript", "template"] as const;

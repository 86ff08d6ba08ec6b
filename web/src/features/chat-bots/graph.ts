import type { BotGraph, BotNode } from '@smartconnect/contracts';

/** Editor-side operations on the drawn graph (pure, so the canvas and the side panel share them). */
export const newId = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

export const emptyNode = (x: number, y: number, root = false): BotNode => ({
  id: newId('node'),
  root,
  title: '',
  position: { x, y },
  reply: { text: '', fileId: null },
  buttons: [],
  triggers: [],
  intents: [],
  actions: [],
});

export const updateNode = (g: BotGraph, id: string, fn: (n: BotNode) => BotNode): BotGraph => ({
  nodes: g.nodes.map((n) => (n.id === id ? fn(n) : n)),
});

/** Points element `elementId` of node `nodeId` (a button, trigger, intent or default action) at `next`. */
export const setNext = (g: BotGraph, nodeId: string, elementId: string, next: string | null): BotGraph =>
  updateNode(g, nodeId, (n) => ({
    ...n,
    buttons: n.buttons.map((b) => (b.id === elementId ? { ...b, next } : b)),
    triggers: n.triggers.map((t) => (t.id === elementId ? { ...t, next } : t)),
    intents: n.intents.map((i) => (i.id === elementId ? { ...i, next } : i)),
    actions: n.actions.map((a) => (a.id === elementId && a.kind === 'default' ? { ...a, next } : a)),
  }));

/** Removes a node and every transition to it. */
export const removeNode = (g: BotGraph, id: string): BotGraph => ({
  nodes: g.nodes
    .filter((n) => n.id !== id)
    .map((n) => ({
      ...n,
      buttons: n.buttons.map((b) => (b.next === id ? { ...b, next: null } : b)),
      triggers: n.triggers.map((t) => (t.next === id ? { ...t, next: null } : t)),
      intents: n.intents.map((i) => (i.next === id ? { ...i, next: null } : i)),
      actions: n.actions.map((a) => (a.kind === 'default' && a.next === id ? { ...a, next: null } : a)),
    })),
});

export type Transition = { nodeId: string; elementId: string; next: string };
export const transitions = (g: BotGraph): Transition[] =>
  g.nodes.flatMap((n) =>
    [
      ...n.buttons.map((b) => ({ elementId: b.id, next: b.next })),
      ...n.triggers.map((t) => ({ elementId: t.id, next: t.next })),
      ...n.intents.map((i) => ({ elementId: i.id, next: i.next })),
      ...n.actions.map((a) => ({ elementId: a.id, next: a.kind === 'default' ? a.next : null })),
    ]
      .filter((x): x is { elementId: string; next: string } => x.next !== null)
      .map((x) => ({ nodeId: n.id, ...x })),
  );

type Point = { x: number; y: number };
export type Box = Point & { width: number; height: number };
const GAP = 24;

/**
 * Where 'Add node' puts a node of `size` (top-left corner, flow coordinates): centred on the view's centre when that
 * place is free, else the free place nearest to it inside the view, so the new node is seen and covers no other
 * (issue 36); the centre when the view has no free place.
 */
export function placeNode(
  centre: Point,
  size: { width: number; height: number },
  taken: Box[],
  view: Box,
): Point {
  const overlaps = (p: Point) =>
    taken.some(
      (b) =>
        p.x < b.x + b.width + GAP &&
        p.x + size.width + GAP > b.x &&
        p.y < b.y + b.height + GAP &&
        p.y + size.height + GAP > b.y,
    );
  const inside = (p: Point) =>
    p.x >= view.x &&
    p.y >= view.y &&
    p.x + size.width <= view.x + view.width &&
    p.y + size.height <= view.y + view.height;
  const origin = { x: centre.x - size.width / 2, y: centre.y - size.height / 2 };
  const steps: Point[] = [];
  for (let i = -8; i <= 8; i++)
    for (let j = -8; j <= 8; j++)
      steps.push({ x: (i * (size.width + GAP)) / 2, y: (j * (size.height + GAP)) / 2 });
  steps.sort((a, b) => Math.hypot(a.x, a.y) - Math.hypot(b.x, b.y));
  for (const s of steps) {
    const p = { x: origin.x + s.x, y: origin.y + s.y };
    if (!overlaps(p) && inside(p)) return p;
  }
  return origin;
}

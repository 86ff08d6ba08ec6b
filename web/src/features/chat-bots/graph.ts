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

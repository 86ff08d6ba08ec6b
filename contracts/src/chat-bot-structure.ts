import {
  type BotGraph,
  type BotNode,
  type BotStructureError,
  type BotStructureIssue,
  CHAT_BOT_LIMITS,
} from './schemas/chat-bots.ts';

/**
 * §8 Chatbot structure and §9 Node limits: every reason a drawn bot cannot be published, each naming the node (and
 * the button, trigger, intent or action) it concerns so the editor shows it on that node. The server runs the same
 * function on publish (400 chatBotStructureException with the issues), so both sides always agree.
 *
 * `buttonsMax`: the channel's own button limit when lower than 10 (§9); `voip`: the bot answers on a VOIP channel,
 * where a button is a key of the phone's keypad (0-9, # or *).
 */
export type BotStructureOptions = { buttonsMax?: number; voip?: boolean };

/** How two subscriber replies are compared: case, width forms and runs of spaces do not make them different. */
export const normaliseReply = (text: string) =>
  text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const VOIP_KEY = /^[0-9#*]$/;

/** Whether `zone` is an IANA time zone this runtime knows (Intl refuses unknown ones). */
export function knownTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function chatBotStructureIssues(
  graph: BotGraph,
  defaultMessage: string,
  opts: BotStructureOptions = {},
): BotStructureIssue[] {
  const issues: BotStructureIssue[] = [];
  const add = (code: BotStructureError, nodeId?: string, elementId?: string) => {
    const issue: BotStructureIssue = { code };
    if (nodeId !== undefined) issue.nodeId = nodeId;
    if (elementId !== undefined) issue.elementId = elementId;
    issues.push(issue);
  };
  const buttonsMax = Math.min(opts.buttonsMax ?? CHAT_BOT_LIMITS.buttonsMax, CHAT_BOT_LIMITS.buttonsMax);

  if (!defaultMessage.trim()) add('emptyDefaultMessage');
  const nodes = graph.nodes;
  // A bot that never says anything has no scenario: no node, or no node with a reply.
  if (!nodes.length || nodes.every((n) => !n.reply.text.trim() && !n.reply.fileId)) add('emptyScenario');

  // Block ids: nodes' and their elements' ids are unique across the whole graph (the editor's handles use them).
  const seen = new Set<string>();
  for (const node of nodes) {
    if (seen.has(node.id)) add('blockIdNotUnique', node.id);
    seen.add(node.id);
  }
  for (const node of nodes) {
    for (const el of elements(node)) {
      if (seen.has(el.id)) add('blockIdNotUnique', node.id, el.id);
      seen.add(el.id);
    }
  }

  const roots = nodes.filter((n) => n.root);
  if (nodes.length && !roots.length) add('rootBlockNotFound');
  if (roots.length > 1) for (const r of roots) add('multipleRootNodes', r.id);

  const nodeIds = new Set(nodes.map((n) => n.id));
  /** A transition must be drawn (empty action value) and lead to a node that exists. */
  const transition = (node: BotNode, elementId: string, next: string | null) => {
    if (next === null) add('emptyActionValue', node.id, elementId);
    else if (!nodeIds.has(next)) add('unknownTransition', node.id, elementId);
  };

  for (const node of nodes) {
    const finals = node.actions.filter((a) => a.kind === 'final');
    // Buttons.
    if (node.buttons.length > buttonsMax) add('tooManyButtons', node.id);
    const replies = new Set<string>();
    const keys = new Set<string>();
    for (const b of node.buttons) {
      const text = b.text.trim();
      if (!text) add('emptyButtonName', node.id, b.id);
      else if ([...text].length > CHAT_BOT_LIMITS.buttonTextMax) add('buttonTextTooLong', node.id, b.id);
      else if (opts.voip && !b.voip && !VOIP_KEY.test(text)) add('invalidVoipButton', node.id, b.id);
      // The button's own VOIP value: one key of the keypad, and no two buttons of a node on the same key.
      if (b.voip) {
        if (!VOIP_KEY.test(b.voip)) add('invalidVoipButton', node.id, b.id);
        else if (keys.has(b.voip)) add('duplicateSubscriberReply', node.id, b.id);
        keys.add(b.voip);
      }
      if (text) {
        const key = normaliseReply(text);
        if (replies.has(key)) add('duplicateSubscriberReply', node.id, b.id);
        replies.add(key);
      }
      // A button that opens an address has no transition; any other one needs one.
      if (!b.url) transition(node, b.id, b.next);
    }
    if (node.buttons.length && finals.length) add('botActionWithSubscriberReply', node.id, finals[0].id);

    // Triggers: a node that branches on the time of day does nothing else but may fall back to a default action.
    if (node.triggers.length > CHAT_BOT_LIMITS.triggersMax) add('tooManyTriggers', node.id);
    for (const t of node.triggers) {
      if (!TIME.test(t.start) || !TIME.test(t.end) || !knownTimeZone(t.timeZone))
        add('triggerTimeIncorrect', node.id, t.id);
      transition(node, t.id, t.next);
    }
    if (node.triggers.length && (node.buttons.length || node.intents.length || finals.length))
      add('triggersWithOtherActions', node.id, node.triggers[0].id);

    // Intents.
    if (node.intents.length > CHAT_BOT_LIMITS.intentsMax) add('tooManyIntents', node.id);
    for (const i of node.intents) {
      if (i.intent === null) add('intentNotChosen', node.id, i.id);
      transition(node, i.id, i.next);
    }

    // Actions: one per node (a default transition or a final action).
    node.actions.forEach((a, index) => {
      if (index > 0) add('multipleDefaultActions', node.id, a.id);
      if (a.kind === 'default') transition(node, a.id, a.next);
      else if ((a.type === 'operator' && !a.operatorId) || (a.type === 'team' && !a.teamId))
        add('emptyActionValue', node.id, a.id);
    });
  }

  for (const nodeId of loopedTriggerNodes(nodes)) add('loopedTriggers', nodeId);
  return issues;
}

type Element = { id: string };
const elements = (n: BotNode): Element[] => [...n.buttons, ...n.triggers, ...n.intents, ...n.actions];

/**
 * The nodes on a cycle of trigger transitions: triggers move the dialog on without the subscriber, so a cycle of
 * them would never stop. Tarjan's strongly connected components over the trigger edges; a component of two or more
 * nodes, or a node whose trigger leads to itself, is a loop.
 */
export function loopedTriggerNodes(nodes: BotNode[]): string[] {
  const ids = new Set(nodes.map((n) => n.id));
  const edges = new Map<string, string[]>();
  for (const n of nodes)
    edges.set(n.id, [
      ...(edges.get(n.id) ?? []),
      ...n.triggers.map((t) => t.next).filter((x): x is string => x !== null && ids.has(x)),
    ]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const looped: string[] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) looped.push(...component);
    }
  };
  for (const id of edges.keys()) if (!index.has(id)) visit(id);
  return looped;
}

/**
 * Nodes nothing leads to and that lead nowhere (§2.6 'a node with no connections is flagged'), in a bot of two or
 * more nodes (a bot of one node needs no connection). Shown as a warning on the node; it does not stop publishing.
 */
export function unconnectedNodes(graph: BotGraph): string[] {
  if (graph.nodes.length < 2) return [];
  const incoming = new Set<string>();
  const outgoing = new Set<string>();
  for (const n of graph.nodes) {
    const nexts = [
      ...n.buttons.map((b) => b.next),
      ...n.triggers.map((t) => t.next),
      ...n.intents.map((i) => i.next),
      ...n.actions.map((a) => (a.kind === 'default' ? a.next : null)),
    ].filter((x): x is string => x !== null);
    if (nexts.length) outgoing.add(n.id);
    for (const x of nexts) incoming.add(x);
  }
  return graph.nodes.filter((n) => !incoming.has(n.id) && !outgoing.has(n.id)).map((n) => n.id);
}

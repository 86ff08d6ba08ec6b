import { recogniseIntent } from './bot-intents.ts';
import type { BotButton, BotFinalActionType, BotGraph, BotNode } from './schemas/chat-bots.ts';
import type { BotIntent } from './schemas/routing-rules.ts';

/**
 * The chat bot engine (issue 18): a PURE function of the graph, the dialog's state, the subscriber's input and the
 * time, shared by the server runtime (modules/bot-runtime) and the editor's simulator. It never touches a channel:
 * it answers what the bot says (outputs), where it waits (state) and how it ends (final). docs/DECISIONS.md
 * "Chat bot runtime" states the semantics:
 *
 * - entering a node sends its reply (text and/or file) with its buttons;
 * - a node with triggers routes at once by the first trigger whose [start, end) holds the local time in its zone
 *   (an end before the start spans midnight); none holds → the bot's default end (close the chat, §4);
 * - a node with a final action performs it after its reply;
 * - a node with no buttons and no intents goes on by its default action;
 * - a node with buttons or intents waits for the subscriber: the answer matches a button by payload (the button's
 *   id), by its normalised text or by its number; else an intent route of the node; else the default action; else
 *   the bot sends its default message and waits again;
 * - a leaf (nothing to wait for, nowhere to go) ends with the default: close the chat (§4);
 * - at most STEP_LIMIT nodes are entered per input: a loop of default actions ends the dialog (closed).
 */
export const BOT_ENGINE_LIMITS = { stepLimit: 50 } as const;

export type BotDialogState = {
  /** The node the bot waits at for the subscriber's answer; null once the dialog ended. */
  nodeId: string | null;
  ended: boolean;
  /** The last intent recognised in the subscriber's text (the chat's intent for routing rules). */
  intent: BotIntent | null;
};
export type BotOutput = {
  nodeId: string;
  text: string;
  fileId: string | null;
  fileName?: string;
  buttons: BotButton[];
};
export type BotFinal = { type: BotFinalActionType; operatorId?: string | null; teamId?: string | null };
export type BotStep = {
  state: BotDialogState;
  outputs: BotOutput[];
  /** Set when the dialog ended: what the bot does with the chat. */
  final?: BotFinal;
  /** The nodes entered by this step, in order (the simulator highlights them). */
  path: string[];
  /** The intent recognised in this input's text, if any. */
  intent?: BotIntent | null;
};
export type BotInput = { text?: string; payload?: string };

const DEFAULT_END: BotFinal = { type: 'close' };

/** "HH:MM" as minutes of the day, or null when not a time. */
export function minutesOf(hhmm: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : null;
}

/** The local minutes of the day at `now` in an IANA zone; null for an unknown zone. */
export function localMinutes(now: Date, timeZone: string): number | null {
  try {
    const parts = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(now);
    const h = Number(parts.find((p) => p.type === 'hour')?.value);
    const m = Number(parts.find((p) => p.type === 'minute')?.value);
    return Number.isFinite(h) && Number.isFinite(m) ? (h % 24) * 60 + m : null;
  } catch {
    return null;
  }
}

/** Whether local time `t` lies in [start, end); an end before the start spans midnight; start = end is all day. */
export function withinWindow(t: number, start: number, end: number): boolean {
  if (start === end) return true;
  return start < end ? t >= start && t < end : t >= start || t < end;
}

/** Button text as compared with a typed answer: lower case, ё → е, no punctuation, single spaces. */
export const normaliseAnswer = (s: string): string =>
  s
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}#*]+/gu, ' ')
    .trim();

const rootOf = (graph: BotGraph): BotNode | undefined => graph.nodes.find((n) => n.root) ?? graph.nodes[0];
const nodeOf = (graph: BotGraph, id: string | null | undefined): BotNode | undefined =>
  id ? graph.nodes.find((n) => n.id === id) : undefined;
const defaultNext = (node: BotNode): string | null => {
  for (const a of node.actions) if (a.kind === 'default') return a.next;
  return null;
};
const finalOf = (node: BotNode): BotFinal | null => {
  for (const a of node.actions)
    if (a.kind === 'final')
      return { type: a.type, operatorId: a.operatorId ?? null, teamId: a.teamId ?? null };
  return null;
};
/** The node waits for the subscriber: it offers buttons or intent routes. */
const waits = (node: BotNode): boolean => node.buttons.length > 0 || node.intents.some((i) => i.intent);

/**
 * Enters `first` and follows the graph until the bot waits or the dialog ends, collecting outputs and the path.
 */
function run(graph: BotGraph, first: BotNode | undefined, now: Date, intent: BotIntent | null): BotStep {
  const outputs: BotOutput[] = [];
  const path: string[] = [];
  let node = first;
  for (let steps = 0; node; steps++) {
    if (steps >= BOT_ENGINE_LIMITS.stepLimit) break;
    path.push(node.id);
    if (node.reply.text.trim() || node.reply.fileId || node.buttons.length)
      outputs.push({
        nodeId: node.id,
        text: node.reply.text,
        fileId: node.reply.fileId,
        ...(node.reply.fileId && node.reply.fileName ? { fileName: node.reply.fileName } : {}),
        buttons: node.buttons,
      });
    if (node.triggers.length) {
      const hit = node.triggers.find((tr) => {
        const start = minutesOf(tr.start);
        const end = minutesOf(tr.end);
        const t = localMinutes(now, tr.timeZone);
        return start !== null && end !== null && t !== null && withinWindow(t, start, end);
      });
      const target = nodeOf(graph, hit?.next);
      if (!target) break;
      node = target;
      continue;
    }
    const final = finalOf(node);
    if (final) return { state: { nodeId: null, ended: true, intent }, outputs, final, path };
    if (waits(node)) return { state: { nodeId: node.id, ended: false, intent }, outputs, path };
    const next = nodeOf(graph, defaultNext(node));
    if (!next) break;
    node = next;
  }
  // A leaf, a trigger window that holds no time, an unknown transition or a loop: the bot's default end (§4).
  return { state: { nodeId: null, ended: true, intent }, outputs, final: DEFAULT_END, path };
}

/** The dialog's start: the root node's reply, and on until the bot waits or ends. */
export function startDialog(graph: BotGraph, _defaultMessage: string, now: Date): BotStep {
  return run(graph, rootOf(graph), now, null);
}

/**
 * The button an answer chooses: by payload (the button's id), by its text, by its VOIP key (a keypad key typed or
 * pressed), or by its number (1-based).
 */
export function chosenButton(node: BotNode, input: BotInput): BotButton | undefined {
  if (input.payload) {
    const b = node.buttons.find((x) => x.id === input.payload);
    if (b) return b;
  }
  const text = input.text ? normaliseAnswer(input.text) : '';
  if (!text) return undefined;
  const byText = node.buttons.find((b) => normaliseAnswer(b.text) === text);
  if (byText) return byText;
  const byKey = node.buttons.find((b) => b.voip === text);
  if (byKey) return byKey;
  if (/^\d{1,2}$/.test(text)) return node.buttons[Number(text) - 1];
  return undefined;
}

/**
 * One subscriber answer: the dialog goes on from the node it waits at. An ended dialog (or one whose node is gone)
 * answers nothing more.
 */
export function stepDialog(
  graph: BotGraph,
  defaultMessage: string,
  state: BotDialogState,
  input: BotInput,
  now: Date,
): BotStep {
  const node = state.ended ? undefined : nodeOf(graph, state.nodeId);
  if (!node)
    return { state: { ...state, nodeId: null, ended: true }, outputs: [], path: [], final: DEFAULT_END };
  const recognised = input.text ? recogniseIntent(input.text) : null;
  const intent = recognised ?? state.intent;
  const button = chosenButton(node, input);
  let target: BotNode | undefined;
  if (button && !button.url) target = nodeOf(graph, button.next);
  if (!target && !button && recognised)
    target = nodeOf(graph, node.intents.find((i) => i.intent === recognised && i.next)?.next);
  if (!target && !button?.url) target = nodeOf(graph, defaultNext(node));
  if (!target)
    return {
      state: { ...state, intent },
      outputs: [{ nodeId: node.id, text: defaultMessage, fileId: null, buttons: node.buttons }],
      path: [],
      intent: recognised,
    };
  return { ...run(graph, target, now, intent), intent: recognised };
}

import {
  type BotDialogState,
  type BotFinal,
  type BotGraph,
  type BotInput,
  type BotStep,
  startDialog,
  stepDialog,
} from '@smartconnect/contracts';

/** One line of the simulated chat: the customer's or the bot's (with the buttons it offered). */
export type SimLine =
  | { from: 'customer'; text: string }
  | {
      from: 'bot';
      nodeId: string;
      text: string;
      fileId: string | null;
      buttons: { id: string; text: string; url?: string }[];
    };

export type SimState = {
  lines: SimLine[];
  dialog: BotDialogState;
  final: BotFinal | null;
  /** Every node the simulated dialog passed, in order (the editor highlights them). */
  path: string[];
};

function applyStep(prev: SimLine[], step: BotStep): SimLine[] {
  return [
    ...prev,
    ...step.outputs.map(
      (o): SimLine => ({ from: 'bot', nodeId: o.nodeId, text: o.text, fileId: o.fileId, buttons: o.buttons }),
    ),
  ];
}

/** A new simulated dialog on the draft: the root's reply and on, as a customer's first message would start it. */
export function simStart(graph: BotGraph, defaultMessage: string, now = new Date()): SimState {
  const step = startDialog(graph, defaultMessage, now);
  return { lines: applyStep([], step), dialog: step.state, final: step.final ?? null, path: step.path };
}

/**
 * The customer answers: typed text or a pressed button (its id as payload, its label as the text shown). An ended
 * dialog takes nothing more. Runs the same pure engine the server runs.
 */
export function simAnswer(
  graph: BotGraph,
  defaultMessage: string,
  state: SimState,
  input: BotInput & { label?: string },
  now = new Date(),
): SimState {
  if (state.dialog.ended) return state;
  const shown = input.label ?? input.text ?? '';
  const step = stepDialog(
    graph,
    defaultMessage,
    state.dialog,
    { text: input.text ?? input.label, payload: input.payload },
    now,
  );
  return {
    lines: applyStep([...state.lines, { from: 'customer', text: shown }], step),
    dialog: step.state,
    final: step.final ?? null,
    path: [...state.path, ...step.path],
  };
}

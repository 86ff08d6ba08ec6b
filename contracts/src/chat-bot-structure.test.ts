import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatBotStructureIssues, loopedTriggerNodes, unconnectedNodes } from './chat-bot-structure.ts';
import {
  BOT_STRUCTURE_ERRORS,
  type BotGraph,
  type BotNode,
  type BotStructureError,
  botGraphSchema,
} from './schemas/chat-bots.ts';

const TEAM = '00000000-0000-4000-8000-000000000001';
const node = (id: string, extra: Partial<BotNode> = {}): BotNode => ({
  id,
  root: false,
  title: '',
  position: { x: 0, y: 0 },
  reply: { text: `Reply of ${id}`, fileId: null },
  buttons: [],
  triggers: [],
  intents: [],
  actions: [],
  ...extra,
});
const btn = (id: string, text: string, next: string | null = 'b') => ({ id, text, next });
const close = (id = 'fin') => ({ id, kind: 'final' as const, type: 'close' as const });

/** A valid bot: a root with two buttons to two nodes; one passes to a team, the other closes. */
const valid = (): BotGraph => ({
  nodes: [
    node('a', { root: true, buttons: [btn('a1', 'Sales', 'b'), btn('a2', 'Support', 'c')] }),
    node('b', { actions: [{ id: 'b1', kind: 'final', type: 'team', teamId: TEAM }] }),
    node('c', { actions: [close('c1')] }),
  ],
});
const codes = (g: BotGraph, message = 'Sorry?', opts = {}) =>
  chatBotStructureIssues(g, message, opts).map((i) => i.code);
const issue = (g: BotGraph, code: BotStructureError, opts = {}) =>
  chatBotStructureIssues(g, 'Sorry?', opts).filter((i) => i.code === code);
function edit(fn: (g: BotGraph) => void): BotGraph {
  const g = valid();
  fn(g);
  return g;
}

test('a valid bot has no issues, and the schema accepts it', () => {
  assert.deepEqual(chatBotStructureIssues(valid(), 'Sorry?'), []);
  assert.ok(botGraphSchema.safeParse(valid()).success);
});

test('emptyDefaultMessage and emptyScenario', () => {
  assert.deepEqual(codes(valid(), '   '), ['emptyDefaultMessage']);
  assert.deepEqual(codes({ nodes: [] }), ['emptyScenario']);
  const silent = { nodes: [node('a', { root: true, reply: { text: ' ', fileId: null } })] };
  assert.deepEqual(codes(silent), ['emptyScenario']);
  // A file is a reply.
  const file = { nodes: [node('a', { root: true, reply: { text: '', fileId: TEAM } })] };
  assert.deepEqual(codes(file), []);
});

test('blockIdNotUnique: nodes and elements across the graph', () => {
  const twice = edit((g) => g.nodes.push(node('c', { actions: [close('c9')] })));
  assert.deepEqual(issue(twice, 'blockIdNotUnique'), [{ code: 'blockIdNotUnique', nodeId: 'c' }]);
  const element = edit((g) => {
    g.nodes[2].actions = [close('a1')];
  });
  assert.deepEqual(issue(element, 'blockIdNotUnique'), [
    { code: 'blockIdNotUnique', nodeId: 'c', elementId: 'a1' },
  ]);
});

test('multipleRootNodes on every root; rootBlockNotFound when none', () => {
  const two = edit((g) => {
    g.nodes[1].root = true;
  });
  assert.deepEqual(
    issue(two, 'multipleRootNodes').map((i) => i.nodeId),
    ['a', 'b'],
  );
  const none = edit((g) => {
    g.nodes[0].root = false;
  });
  assert.deepEqual(codes(none), ['rootBlockNotFound']);
});

test('duplicateSubscriberReply: normalised text (case, spaces, width)', () => {
  const g = edit((x) => {
    x.nodes[0].buttons.push(btn('a3', '  SALES ', 'b'), btn('a4', 'Ｓｕｐｐｏｒｔ', 'c'));
  });
  assert.deepEqual(issue(g, 'duplicateSubscriberReply'), [
    { code: 'duplicateSubscriberReply', nodeId: 'a', elementId: 'a3' },
    { code: 'duplicateSubscriberReply', nodeId: 'a', elementId: 'a4' },
  ]);
});

test('botActionWithSubscriberReply: a final action beside buttons', () => {
  const g = edit((x) => {
    x.nodes[0].actions = [close('a9')];
  });
  assert.deepEqual(codes(g), ['botActionWithSubscriberReply']);
  assert.equal(issue(g, 'botActionWithSubscriberReply')[0].nodeId, 'a');
});

test('triggersWithOtherActions: triggers beside buttons, intents or a final action (a default is the fallback)', () => {
  const trig = { id: 't1', start: '09:00', end: '18:00', timeZone: 'Europe/Moscow', next: 'b' };
  const withButtons = edit((x) => {
    x.nodes[0].triggers = [trig];
  });
  assert.deepEqual(codes(withButtons), ['triggersWithOtherActions']);
  const withFallback = edit((x) => {
    x.nodes[0].buttons = [];
    x.nodes[0].triggers = [trig];
    x.nodes[0].actions = [{ id: 'd1', kind: 'default', next: 'c' }];
  });
  assert.deepEqual(codes(withFallback), []);
  const withFinal = edit((x) => {
    x.nodes[2].triggers = [{ ...trig, id: 't2' }];
  });
  assert.deepEqual(issue(withFinal, 'triggersWithOtherActions')[0], {
    code: 'triggersWithOtherActions',
    nodeId: 'c',
    elementId: 't2',
  });
});

test('loopedTriggers: a cycle through trigger transitions, and a trigger to its own node', () => {
  const t = (id: string, next: string) => ({ id, start: '00:00', end: '12:00', timeZone: 'UTC', next });
  const g: BotGraph = {
    nodes: [
      node('a', { root: true, triggers: [t('t1', 'b')] }),
      node('b', { triggers: [t('t2', 'c')] }),
      node('c', { triggers: [t('t3', 'a')] }),
      node('d', { triggers: [t('t4', 'd')] }),
      node('e', { triggers: [t('t5', 'a')] }),
    ],
  };
  assert.deepEqual(
    issue(g, 'loopedTriggers')
      .map((i) => i.nodeId)
      .sort(),
    ['a', 'b', 'c', 'd'],
  );
  assert.deepEqual(loopedTriggerNodes(valid().nodes), []);
  // Buttons back to an earlier node are no loop: the subscriber chooses.
  const back = edit((x) => {
    x.nodes[1].actions = [];
    x.nodes[1].buttons = [btn('b1', 'Again', 'a')];
  });
  assert.deepEqual(codes(back), []);
});

test('multipleDefaultActions: a second action on a node', () => {
  const g = edit((x) => {
    x.nodes[2].actions.push({ id: 'c2', kind: 'default', next: 'a' });
  });
  assert.deepEqual(issue(g, 'multipleDefaultActions'), [
    { code: 'multipleDefaultActions', nodeId: 'c', elementId: 'c2' },
  ]);
});

test('emptyActionValue: operator or team not chosen, transitions not drawn', () => {
  const g = edit((x) => {
    x.nodes[1].actions = [{ id: 'b1', kind: 'final', type: 'team', teamId: null }];
    x.nodes[2].actions = [{ id: 'c1', kind: 'final', type: 'operator' }];
    x.nodes[0].buttons[1].next = null;
  });
  assert.deepEqual(
    issue(g, 'emptyActionValue').map((i) => i.elementId),
    ['a2', 'b1', 'c1'],
  );
  const def = edit((x) => {
    x.nodes[2].actions = [{ id: 'c1', kind: 'default', next: null }];
  });
  assert.deepEqual(codes(def), ['emptyActionValue']);
  // A button that opens an address needs no transition.
  const url = edit((x) => {
    x.nodes[0].buttons[1] = { id: 'a2', text: 'Site', next: null, url: 'https://example.com' };
  });
  assert.deepEqual(codes(url), []);
});

test('tooManyButtons: 10 by default, or the channel’s own limit', () => {
  const ten = edit((x) => {
    x.nodes[0].buttons = Array.from({ length: 10 }, (_, i) => btn(`k${i}`, `Option ${i}`, 'b'));
  });
  assert.deepEqual(codes(ten), []);
  assert.deepEqual(codes(ten, 'Sorry?', { buttonsMax: 3 }), ['tooManyButtons']);
  const eleven = edit((x) => {
    x.nodes[0].buttons = Array.from({ length: 11 }, (_, i) => btn(`k${i}`, `Option ${i}`, 'b'));
  });
  assert.deepEqual(codes(eleven), ['tooManyButtons']);
});

test('buttonTextTooLong (64 code points) and emptyButtonName', () => {
  const g = edit((x) => {
    x.nodes[0].buttons[0].text = '😀'.repeat(64);
    x.nodes[0].buttons[1].text = '😀'.repeat(65);
  });
  assert.deepEqual(issue(g, 'buttonTextTooLong'), [
    { code: 'buttonTextTooLong', nodeId: 'a', elementId: 'a2' },
  ]);
  const empty = edit((x) => {
    x.nodes[0].buttons[0].text = '  ';
  });
  assert.deepEqual(codes(empty), ['emptyButtonName']);
});

test('invalidVoipButton: only 0-9, # and * on a VOIP channel', () => {
  const g = edit((x) => {
    x.nodes[0].buttons = [
      btn('k1', '1', 'b'),
      btn('k2', '#', 'c'),
      btn('k3', '*', 'c'),
      btn('k4', 'Sales', 'b'),
    ];
  });
  assert.deepEqual(codes(g), []);
  assert.deepEqual(issue(g, 'invalidVoipButton', { voip: true }), [
    { code: 'invalidVoipButton', nodeId: 'a', elementId: 'k4' },
  ]);
});

test("invalidVoipButton: a button's VOIP value is one key, 0-9, # or *, on any bot; no two buttons on one key", () => {
  const keyed = (...keys: string[]) =>
    edit((x) => {
      x.nodes[0].buttons = keys.map((k, i) => ({ ...btn(`v${i}`, `Choice ${i}`, 'b'), voip: k }));
    });
  assert.deepEqual(codes(keyed('1', '9', '0', '#', '*')), []);
  for (const bad of ['10', 'a', ' 1', '+', '##', '١'])
    assert.deepEqual(
      issue(keyed('1', bad), 'invalidVoipButton'),
      [{ code: 'invalidVoipButton', nodeId: 'a', elementId: 'v1' }],
      bad,
    );
  assert.deepEqual(issue(keyed('5', '5'), 'duplicateSubscriberReply'), [
    { code: 'duplicateSubscriberReply', nodeId: 'a', elementId: 'v1' },
  ]);
  // On a VOIP channel a button with its own key may have any text.
  assert.deepEqual(codes(keyed('1', '2'), 'Sorry?', { voip: true }), []);
});

test('tooManyTriggers and tooManyIntents: at most 10 each', () => {
  const g = edit((x) => {
    x.nodes[0].buttons = [];
    x.nodes[0].triggers = Array.from({ length: 11 }, (_, i) => ({
      id: `t${i}`,
      start: '09:00',
      end: '10:00',
      timeZone: 'UTC',
      next: 'b',
    }));
    x.nodes[1].actions = [];
    x.nodes[1].intents = Array.from({ length: 11 }, (_, i) => ({
      id: `i${i}`,
      intent: 'HELP' as const,
      next: 'c',
    }));
  });
  assert.deepEqual(codes(g).sort(), ['tooManyIntents', 'tooManyTriggers']);
});

test('intentNotChosen', () => {
  const g = edit((x) => {
    x.nodes[1].actions = [];
    x.nodes[1].intents = [{ id: 'i1', intent: null, next: 'c' }];
  });
  assert.deepEqual(issue(g, 'intentNotChosen'), [{ code: 'intentNotChosen', nodeId: 'b', elementId: 'i1' }]);
});

test('triggerTimeIncorrect: HH:MM and a known IANA zone', () => {
  for (const [start, end, timeZone, ok] of [
    ['09:00', '18:30', 'Europe/Moscow', true],
    ['22:00', '06:00', 'America/New_York', true],
    ['9:00', '18:00', 'UTC', false],
    ['24:00', '18:00', 'UTC', false],
    ['09:00', '18:60', 'UTC', false],
    ['09:00', '18:00', 'Mars/Olympus', false],
    ['09:00', '18:00', '', false],
  ] as const) {
    const g = edit((x) => {
      x.nodes[0].buttons = [];
      x.nodes[0].triggers = [{ id: 't1', start, end, timeZone, next: 'b' }];
      x.nodes[0].actions = [{ id: 'd', kind: 'default', next: 'c' }];
    });
    assert.deepEqual(codes(g), ok ? [] : ['triggerTimeIncorrect'], `${start} ${end} ${timeZone}`);
  }
});

test('unknownTransition: a transition to a node that does not exist', () => {
  const g = edit((x) => {
    x.nodes[0].buttons[0].next = 'zzz';
  });
  assert.deepEqual(issue(g, 'unknownTransition'), [
    { code: 'unknownTransition', nodeId: 'a', elementId: 'a1' },
  ]);
});

test('every §8 structure code has a drawing that raises it', () => {
  const t = (id: string, next: string, start = '09:00') => ({
    id,
    start,
    end: '18:00',
    timeZone: 'UTC',
    next,
  });
  const examples: Record<BotStructureError, () => { g: BotGraph; message?: string; voip?: boolean }> = {
    blockIdNotUnique: () => ({ g: edit((x) => x.nodes.push(node('b'))) }),
    multipleRootNodes: () => ({ g: edit((x) => (x.nodes[2].root = true)) }),
    rootBlockNotFound: () => ({ g: edit((x) => (x.nodes[0].root = false)) }),
    duplicateSubscriberReply: () => ({ g: edit((x) => (x.nodes[0].buttons[1].text = 'sales')) }),
    botActionWithSubscriberReply: () => ({ g: edit((x) => x.nodes[0].actions.push(close('z'))) }),
    triggersWithOtherActions: () => ({ g: edit((x) => x.nodes[0].triggers.push(t('t', 'b'))) }),
    loopedTriggers: () => ({ g: edit((x) => x.nodes[1].triggers.push(t('t', 'b'))) }),
    emptyScenario: () => ({ g: { nodes: [] } }),
    multipleDefaultActions: () => ({ g: edit((x) => x.nodes[2].actions.push(close('z'))) }),
    emptyActionValue: () => ({ g: edit((x) => (x.nodes[0].buttons[0].next = null)) }),
    tooManyButtons: () => ({
      g: edit((x) => {
        x.nodes[0].buttons = Array.from({ length: 11 }, (_, i) => btn(`k${i}`, `${i}`, 'b'));
      }),
    }),
    buttonTextTooLong: () => ({ g: edit((x) => (x.nodes[0].buttons[0].text = 'x'.repeat(65))) }),
    emptyButtonName: () => ({ g: edit((x) => (x.nodes[0].buttons[0].text = '')) }),
    emptyDefaultMessage: () => ({ g: valid(), message: ' ' }),
    invalidVoipButton: () => ({ g: valid(), voip: true }),
    tooManyTriggers: () => ({
      g: edit((x) => {
        x.nodes[1].triggers = Array.from({ length: 11 }, (_, i) => t(`t${i}`, 'c'));
      }),
    }),
    tooManyIntents: () => ({
      g: edit((x) => {
        x.nodes[1].intents = Array.from({ length: 11 }, (_, i) => ({
          id: `i${i}`,
          intent: 'HELP' as const,
          next: 'c',
        }));
      }),
    }),
    intentNotChosen: () => ({
      g: edit((x) => x.nodes[1].intents.push({ id: 'i', intent: null, next: 'c' })),
    }),
    triggerTimeIncorrect: () => ({ g: edit((x) => x.nodes[1].triggers.push(t('t', 'c', '25:00'))) }),
    unknownTransition: () => ({ g: edit((x) => (x.nodes[0].buttons[0].next = 'gone')) }),
  };
  assert.deepEqual(Object.keys(examples).sort(), [...BOT_STRUCTURE_ERRORS].sort());
  for (const code of BOT_STRUCTURE_ERRORS) {
    const { g, message = 'Sorry?', voip = false } = examples[code]();
    assert.ok(codes(g, message, { voip }).includes(code), code);
  }
});

test('unconnectedNodes: nodes nothing leads to and that lead nowhere', () => {
  assert.deepEqual(unconnectedNodes(valid()), []);
  const g = edit((x) => x.nodes.push(node('lonely')));
  assert.deepEqual(unconnectedNodes(g), ['lonely']);
  assert.deepEqual(unconnectedNodes({ nodes: [node('a', { root: true })] }), []);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatHistoryDto, MessageDto } from '@smartconnect/contracts';
import { buildTimeline } from './timeline.ts';

const msg = (id: string, at: string): MessageDto => ({
  id,
  chatId: 'c',
  direction: 'in',
  kind: 'normal',
  internal: false,
  text: id,
  attachments: [],
  buttons: null,
  status: null,
  statusReason: null,
  author: null,
  bot: null,
  externalMessageId: null,
  editedAt: null,
  createdAt: at,
});
const ev = (id: string, kind: ChatHistoryDto['kind'], at: string): ChatHistoryDto => ({
  id,
  kind,
  actorId: null,
  fromUserId: null,
  toUserId: null,
  fromTeamId: null,
  toTeamId: null,
  categoryId: null,
  score: null,
  ruleId: null,
  ruleName: null,
  toBotId: null,
  botName: null,
  categoryPath: null,
  createdAt: at,
});
const day = (iso: string) => iso.slice(0, 10);

test('messages and events in time order with a separator before each day; creation is not shown', () => {
  const t = buildTimeline(
    [msg('m1', '2026-01-01T10:00:00.000Z'), msg('m2', '2026-01-02T09:00:00.000Z')],
    [
      ev('h0', 'created', '2026-01-01T10:00:00.000Z'),
      ev('h1', 'assign', '2026-01-01T10:00:01.000Z'),
      ev('h2', 'close', '2026-01-02T09:30:00.000Z'),
    ],
    day,
    true,
  );
  assert.deepEqual(
    t.map((e) => e.key),
    ['d-2026-01-01', 'm1', 'h-h1', 'd-2026-01-02', 'm2', 'h-h2'],
  );
});

test('while older pages are not loaded, older events wait with them', () => {
  const t = buildTimeline(
    [msg('m9', '2026-01-05T10:00:00.000Z')],
    [ev('old', 'transfer', '2026-01-01T10:00:00.000Z'), ev('new', 'takeover', '2026-01-05T11:00:00.000Z')],
    day,
    false,
  );
  assert.deepEqual(
    t.map((e) => e.key),
    ['d-2026-01-05', 'm9', 'h-new'],
  );
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ChatFacts, conditionsKey, matches, normaliseConditions } from './conditions.ts';

const chat = (f: Partial<ChatFacts> = {}): ChatFacts => ({
  channelId: 'ch-1',
  repeated: false,
  messageType: 'client',
  marketingType: null,
  intent: null,
  ...f,
});
const rule = (c: Parameters<typeof normaliseConditions>[0]) => normaliseConditions(c);

describe('routing rule conditions', () => {
  it('any client matches new and repeated clients', () => {
    const c = rule({ clients: 'any' });
    assert.equal(matches(c, chat()), true);
    assert.equal(matches(c, chat({ repeated: true })), true);
  });
  it('new matches only a first chat, repeated only a later one', () => {
    assert.equal(matches(rule({ clients: 'new' }), chat()), true);
    assert.equal(matches(rule({ clients: 'new' }), chat({ repeated: true })), false);
    assert.equal(matches(rule({ clients: 'repeated' }), chat({ repeated: true })), true);
    assert.equal(matches(rule({ clients: 'repeated' }), chat()), false);
  });
  it('channels: empty is every channel, otherwise one of them', () => {
    assert.equal(matches(rule({ clients: 'any', channelIds: [] }), chat()), true);
    assert.equal(matches(rule({ clients: 'any', channelIds: ['ch-2', 'ch-1'] }), chat()), true);
    assert.equal(matches(rule({ clients: 'any', channelIds: ['ch-2'] }), chat()), false);
  });
  it("message type: absent is 'client'; a mailing rule matches only chats our message opened", () => {
    assert.equal(matches(rule({ clients: 'any' }), chat({ messageType: 'mailing' })), false);
    assert.equal(matches(rule({ clients: 'any', messageType: 'mailing' }), chat()), false);
    assert.equal(
      matches(rule({ clients: 'any', messageType: 'mailing' }), chat({ messageType: 'mailing' })),
      true,
    );
  });
  it('marketing type must equal the mailing’s; a client’s chat has none', () => {
    const service = rule({ clients: 'any', messageType: 'mailing', marketingType: 'service' });
    assert.equal(matches(service, chat({ messageType: 'mailing', marketingType: 'service' })), true);
    assert.equal(matches(service, chat({ messageType: 'mailing', marketingType: 'advertising' })), false);
    assert.equal(matches(rule({ clients: 'any', marketingType: 'advertising' }), chat()), false);
  });
  it('intents: included ones are required, excluded ones refused', () => {
    const include = rule({ clients: 'any', intentsInclude: ['HELP'] });
    assert.equal(matches(include, chat()), false);
    assert.equal(matches(include, chat({ intent: 'HELP' })), true);
    assert.equal(matches(include, chat({ intent: 'GREETING' })), false);
    const exclude = rule({ clients: 'any', intentsExclude: ['GOODBYE'] });
    assert.equal(matches(exclude, chat()), true);
    assert.equal(matches(exclude, chat({ intent: 'GOODBYE' })), false);
  });
  it('the same conditions written differently have one key', () => {
    const a = rule({ clients: 'new', channelIds: ['b', 'a', 'a'], intentsInclude: ['HELP', 'GREETING'] });
    const b = rule({
      clients: 'new',
      channelIds: ['a', 'b'],
      messageType: 'client',
      intentsInclude: ['GREETING', 'HELP'],
      intentsExclude: [],
    });
    assert.equal(conditionsKey(a), conditionsKey(b));
    assert.notEqual(conditionsKey(a), conditionsKey(rule({ clients: 'repeated', channelIds: ['a', 'b'] })));
  });
});

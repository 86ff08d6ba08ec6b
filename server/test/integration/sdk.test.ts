import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type ChatMessage, SmartConnectChat } from '@smartconnect/sdk';
import { WebSocket } from 'ws';
import {
  createOrganisation,
  startTestServer,
  type TestOrg,
  type TestServer,
  type TestUser,
} from '../helpers.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';
import { until } from './cluster-fixtures.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const NodeWebSocket = WebSocket as unknown as typeof globalThis.WebSocket;

/** The customer chat SDK (sdk/) against a started server: what an app built on it sees. */
describe('customer chat SDK', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => {
    await s.close();
  });

  type Setup = { org: TestOrg; channelId: string; operator: TestUser };
  async function setup(): Promise<Setup> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const operator = await org.user({ teams: [teamId] });
    await goOnline(operator);
    const res = await org.admin.api.post('/api/channels', { type: 'site_chat', name: 'App', teamId });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { org, channelId: res.body.entity.id, operator };
  }
  const chatOf = (operator: TestUser) =>
    until(
      async () => (await operator.api.get('/api/chats?filter=assigned')).body.entity.items[0],
      'the chat',
    );
  const reply = async (operator: TestUser, chatId: string, text: string) => {
    const res = await operator.api.post(`/api/chats/${chatId}/messages`, { text });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity.id as string;
  };
  const connect = (channelId: string, token?: string) =>
    SmartConnectChat.connect({ baseUrl: s.url, channelId, token, WebSocket: NodeWebSocket });

  test('connect, send text and a file, live replies with statuses, typing both ways; a dropped socket misses nothing', async () => {
    const { channelId, operator } = await setup();
    const chat = await connect(channelId);
    const seen: ChatMessage[] = [];
    chat.on('message', (m) => seen.push(m));
    const updates: ChatMessage[] = [];
    chat.on('update', (m) => updates.push(m));
    const states: boolean[] = [];
    chat.on('connection', (up) => states.push(up));
    try {
      assert.ok(chat.token, 'a new customer has a token to keep');
      assert.equal(chat.config?.channelId, channelId);
      await until(async () => states.includes(true) || undefined, 'the live connection');

      const hello = await chat.send('Hello from the app');
      assert.equal(hello.direction, 'in');
      const file = await chat.send('The receipt', [
        { data: new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')]), name: 'receipt.pdf' },
      ]);
      assert.equal(file.attachments[0]?.name, 'receipt.pdf');
      const conv = await chatOf(operator);

      // The customer typing reaches the operator's workspace; the operator's reaches the app.
      const typing: (string | null)[] = [];
      chat.on('typing', (name) => typing.push(name));
      assert.equal((await operator.api.post(`/api/chats/${conv.id}/typing`)).status, 200);
      await until(async () => typing.length > 0 || undefined, 'the operator typing');

      const first = await reply(operator, conv.id, 'Hi! Looking at it now.');
      await until(async () => seen.find((m) => m.id === first) || undefined, 'the live reply');
      assert.equal(chat.messages.at(-1)?.text, 'Hi! Looking at it now.');
      // Told once as new; the SDK marks it delivered, and the change comes back as an update.
      assert.equal(seen.filter((m) => m.id === first).length, 1);
      await until(
        async () => updates.some((m) => m.id === first && m.status === 'delivered') || undefined,
        'the delivered update',
      );
      await until(
        async () =>
          (await operator.api.get(`/api/chats/${conv.id}/messages`)).body.entity.items.find(
            (m: { id: string; status: string }) => m.id === first && m.status === 'delivered',
          ),
        'delivered at the operator',
      );
      await chat.markRead();
      await until(
        async () =>
          (await operator.api.get(`/api/chats/${conv.id}/messages`)).body.entity.items.find(
            (m: { id: string; status: string }) => m.id === first && m.status === 'read',
          ),
        'the read mark at the operator',
      );

      // The network drops; meanwhile two replies are sent. The SDK resumes from its last message: both arrive, once.
      const before = states.length;
      chat.dropConnection();
      await until(async () => states.slice(before).includes(false) || undefined, 'the drop');
      const missed = [await reply(operator, conv.id, 'one'), await reply(operator, conv.id, 'two')];
      await until(
        async () => missed.every((id) => chat.messages.some((m) => m.id === id)) || undefined,
        'the missed replies',
        20_000,
      );
      assert.deepEqual(
        chat.messages.map((m) => m.text),
        ['Hello from the app', 'The receipt', 'Hi! Looking at it now.', 'one', 'two'],
      );
      assert.equal(new Set(chat.messages.map((m) => m.id)).size, 5, 'each once');

      // The same token later: the same conversation.
      const again = await connect(channelId, chat.token ?? undefined);
      try {
        assert.equal(again.messages.length, 5);
      } finally {
        again.close();
      }
    } finally {
      chat.close();
    }
  });

  test('a forged or another channel’s token is refused (401): a customer cannot read another conversation', async () => {
    const a = await setup();
    const b = await setup();
    const chat = await connect(a.channelId);
    try {
      await chat.send('private');
      const token = chat.token ?? '';
      await assert.rejects(connect(b.channelId, token), (e: { status?: number }) => e.status === 401);
      const forged = `${token.split('~')[0]}~${'A'.repeat(43)}`;
      await assert.rejects(connect(a.channelId, forged), (e: { status?: number }) => e.status === 401);
    } finally {
      chat.close();
    }
  });

  test('the README’s example app runs in Node: it sends, prints the operator’s answer and its token', async () => {
    const { channelId, operator } = await setup();
    const run = promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'sdk/examples/node-chat.ts', 'Where is my order?'],
      {
        cwd: root,
        env: { ...process.env, SMARTCONNECT_URL: s.url, SMARTCONNECT_CHANNEL: channelId },
        timeout: 60_000,
      },
    );
    const conv = await chatOf(operator);
    await until(
      async () =>
        (await operator.api.get(`/api/chats/${conv.id}/messages`)).body.entity.items.some(
          (m: { text: string }) => m.text === 'Where is my order?',
        ) || undefined,
      'the example’s message',
    );
    await reply(operator, conv.id, 'It ships today.');
    const { stdout } = await run.catch((e: { stdout?: string; stderr?: string }) => {
      throw new Error(`the example failed:\n${e.stdout}\n${e.stderr}`);
    });
    assert.match(stdout, /^token: v\.[A-Za-z0-9_-]+~/m);
    assert.match(stdout, /^sent: Where is my order\?$/m);
    assert.match(stdout, /: It ships today\.$/m);
  });
});

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, test } from 'node:test';
import { type FakeTelegram, startFakeTelegram, type TgMessage, type TgUpdate } from './telegram.ts';

type ApiAnswer = {
  ok: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
};

let tg: FakeTelegram;
afterEach(() => tg?.close());

async function call(
  method: string,
  body?: Record<string, unknown> | FormData | URLSearchParams,
  token = tg.token,
) {
  const init: RequestInit =
    body === undefined
      ? {}
      : body instanceof FormData || body instanceof URLSearchParams
        ? { method: 'POST', body }
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(`${tg.baseUrl}/bot${token}/${method}`, init);
  return { status: res.status, headers: res.headers, json: (await res.json()) as ApiAnswer };
}

describe('fake Telegram Bot API', () => {
  test('getMe answers the bot with a good token and 401 Unauthorized with a wrong one', async () => {
    tg = await startFakeTelegram({ username: 'acme_support_bot' });
    const good = await call('getMe');
    assert.equal(good.status, 200);
    assert.equal(good.headers.get('content-type'), 'application/json');
    const me = good.json.result as { id: number; is_bot: boolean; username: string; first_name: string };
    assert.deepEqual([me.id, me.is_bot, me.username], [tg.bot.id, true, 'acme_support_bot']);
    assert.equal(String(me.id), tg.token.split(':')[0]);
    tg.assertNoUnexpected();

    const bad = await call('getMe', undefined, '123:wrong');
    assert.equal(bad.status, 401);
    assert.deepEqual(bad.json, { ok: false, error_code: 401, description: 'Unauthorized' });
    assert.throws(() => tg.assertNoUnexpected(), /wrong bot token/);
  });

  test('setWebhook and deleteWebhook are recorded and reported by getWebhookInfo', async () => {
    tg = await startFakeTelegram();
    const set = await call('setWebhook', {
      url: 'https://smartconnect.example/api/webhooks/telegram/ch1',
      secret_token: 'abc_DEF-123',
      allowed_updates: ['message', 'callback_query'],
      drop_pending_updates: true,
    });
    assert.deepEqual(set.json, { ok: true, result: true, description: 'Webhook was set' });
    assert.equal(tg.webhook?.url, 'https://smartconnect.example/api/webhooks/telegram/ch1');
    assert.equal(tg.webhook?.secretToken, 'abc_DEF-123');
    assert.equal(tg.webhook?.dropPendingUpdates, true);
    const info = (await call('getWebhookInfo')).json.result as { url: string; allowed_updates: string[] };
    assert.deepEqual(info.allowed_updates, ['message', 'callback_query']);

    const badSecret = await call('setWebhook', { url: 'https://x.example/hook', secret_token: 'a+b/c=' });
    assert.equal(badSecret.json.description, 'Bad Request: secret token contains unallowed characters');
    const plainHttp = await call('setWebhook', { url: 'http://x.example/hook' });
    assert.equal(
      plainHttp.json.description,
      'Bad Request: bad webhook: An HTTPS URL must be provided for webhook',
    );

    assert.equal((await call('deleteWebhook', {})).json.description, 'Webhook was deleted');
    assert.equal(tg.webhook, null);
    assert.equal((await call('deleteWebhook', {})).json.description, 'Webhook is already deleted');
    assert.equal(((await call('getWebhookInfo')).json.result as { url: string }).url, '');
    tg.assertNoUnexpected();
  });

  test('sendMessage: a Message back, too long, empty, blocked chat, and 429 with retry_after', async () => {
    tg = await startFakeTelegram();
    const keyboard = { inline_keyboard: [[{ text: 'Yes', callback_data: 'yes' }]] };
    const form = new URLSearchParams({
      chat_id: '42',
      text: 'Hello',
      reply_markup: JSON.stringify(keyboard),
    });
    const ok = await call('sendMessage', form);
    const message = ok.json.result as TgMessage;
    assert.equal(message.text, 'Hello');
    assert.equal(message.chat.id, 42);
    assert.equal(message.from?.id, tg.bot.id);
    assert.deepEqual(message.reply_markup, keyboard);
    const second = (await call('sendMessage', { chat_id: 42, text: 'Again' })).json.result as TgMessage;
    assert.equal(second.message_id, message.message_id + 1);
    assert.equal(tg.expect.called('sendMessage', 2).params.text, 'Again');

    const long = await call('sendMessage', { chat_id: 42, text: 'x'.repeat(4097) });
    assert.deepEqual(long.json, {
      ok: false,
      error_code: 400,
      description: 'Bad Request: message is too long',
    });
    assert.equal(
      (await call('sendMessage', { chat_id: 42, text: ' ' })).json.description,
      'Bad Request: message text is empty',
    );

    tg.setBlocked(42);
    const blocked = await call('sendMessage', { chat_id: 42, text: 'Hi' });
    assert.equal(blocked.status, 403);
    assert.equal(blocked.json.description, 'Forbidden: bot was blocked by the user');

    tg.failNext('sendMessage', { status: 429, retryAfter: 7 });
    const limited = await call('sendMessage', { chat_id: 7, text: 'Hi' });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '7');
    assert.deepEqual(limited.json, {
      ok: false,
      error_code: 429,
      description: 'Too Many Requests: retry after 7',
      parameters: { retry_after: 7 },
    });
    assert.equal((await call('sendMessage', { chat_id: 7, text: 'Hi' })).status, 200);
    tg.assertNoUnexpected();
  });

  test('reply_markup: an InlineKeyboardMarkup is checked as the Bot API documents it', async () => {
    tg = await startFakeTelegram();
    const send = (reply_markup: unknown) => call('sendMessage', { chat_id: 42, text: 'Pick', reply_markup });
    const keyboard = {
      inline_keyboard: [
        [
          { text: 'Yes', callback_data: 'yes' },
          { text: 'Site', url: 'https://example.com/' },
        ],
      ],
    };
    // JSON-serialised (a string) or, in a JSON body, the object itself.
    assert.deepEqual(
      ((await send(JSON.stringify(keyboard))).json.result as TgMessage).reply_markup,
      keyboard,
    );
    assert.deepEqual(((await send(keyboard)).json.result as TgMessage).reply_markup, keyboard);
    const refused = async (markup: unknown, description: string) => {
      const res = await send(markup);
      assert.equal(res.status, 400, JSON.stringify(markup));
      assert.deepEqual(res.json, { ok: false, error_code: 400, description: `Bad Request: ${description}` });
    };
    await refused('{not json', "can't parse reply keyboard markup JSON object");
    await refused(
      { inline_keyboard: [[{ text: 'Plain' }]] },
      "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
    );
    await refused(
      { inline_keyboard: [[{ text: 'Both', callback_data: 'x', url: 'https://example.com/' }]] },
      "can't parse inline keyboard button: exactly one of the optional fields must be used",
    );
    await refused(
      { inline_keyboard: [[{ text: 'Long', callback_data: 'é'.repeat(33) }]] },
      'BUTTON_DATA_INVALID',
    );
    await refused({ inline_keyboard: [[{ text: 'Empty', callback_data: '' }]] }, 'BUTTON_DATA_INVALID');
    await refused(
      { inline_keyboard: [[{ text: 'Bad', url: 'javascript:alert(1)' }]] },
      "inline keyboard button URL 'javascript:alert(1)' is invalid: Wrong HTTP URL",
    );
    await refused(
      { inline_keyboard: [[{ callback_data: 'x' }]] },
      'can\'t parse inline keyboard button: field "text" must be of type String',
    );
    assert.equal(
      (await send({ inline_keyboard: [[{ text: '64', callback_data: 'é'.repeat(32) }]] })).status,
      200,
    );
    // In multipart (an upload) the markup is a JSON string too.
    const form = new FormData();
    form.set('chat_id', '42');
    form.set('photo', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' }), 'p.jpg');
    form.set('reply_markup', JSON.stringify(keyboard));
    assert.deepEqual(((await call('sendPhoto', form)).json.result as TgMessage).reply_markup, keyboard);
    assert.deepEqual(
      tg.unexpected.map((u) => u.reason),
      [
        'sendMessage: reply_markup is not JSON',
        'inline button without action',
        'inline button with url and callback_data',
        'malformed inline_keyboard',
      ],
    );
  });

  test('multipart sendPhoto keeps the uploaded bytes; getFile and the file URL give them back', async () => {
    tg = await startFakeTelegram();
    const bytes = Buffer.from('not really a jpeg, but bytes all the same');
    const form = new FormData();
    form.append('chat_id', '42');
    form.append('caption', 'Your receipt');
    form.append('photo', new Blob([bytes], { type: 'image/jpeg' }), 'receipt.jpg');
    const sent = (await call('sendPhoto', form)).json.result as TgMessage;
    const recorded = tg.expect.called('sendPhoto', 1);
    assert.equal(recorded.params.caption, 'Your receipt');
    assert.deepEqual(
      { ...recorded.files.photo, bytes: recorded.files.photo.bytes.toString() },
      { name: 'receipt.jpg', contentType: 'image/jpeg', size: bytes.length, bytes: bytes.toString() },
    );
    assert.equal(sent.caption, 'Your receipt');
    const sizes = sent.photo ?? [];
    assert.equal(sizes.length, 3);
    assert.ok(sizes.every((s, i) => i === 0 || s.width > sizes[i - 1].width));

    const file = (await call('getFile', { file_id: sizes[2].file_id })).json.result as {
      file_path: string;
      file_size: number;
    };
    assert.equal(file.file_size, bytes.length);
    const download = await fetch(`${tg.baseUrl}/file/bot${tg.token}/${file.file_path}`);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), bytes);
    assert.equal(
      (await call('sendPhoto', { chat_id: 42 })).json.description,
      'Bad Request: there is no photo in the request',
    );
    assert.throws(() => tg.assertNoUnexpected(), /sendPhoto without photo/);
  });

  test('getFile of a registered file, and file download refusals', async () => {
    tg = await startFakeTelegram();
    const fileId = tg.addFile(Buffer.from('%PDF'), { filePath: 'documents/file_9.pdf' });
    const info = await call('getFile', { file_id: fileId });
    assert.deepEqual(info.json.result, {
      file_id: fileId,
      file_unique_id: (info.json.result as { file_unique_id: string }).file_unique_id,
      file_size: 4,
      file_path: 'documents/file_9.pdf',
    });
    const res = await fetch(`${tg.baseUrl}/file/bot${tg.token}/documents/file_9.pdf`);
    assert.equal(await res.text(), '%PDF');
    assert.deepEqual(tg.downloads, ['documents/file_9.pdf']);
    const big = tg.addFile(Buffer.from('x'), { fileSize: 21 * 1024 * 1024 });
    assert.equal((await call('getFile', { file_id: big })).json.description, 'Bad Request: file is too big');
    assert.equal(
      (await call('getFile', { file_id: 'nope' })).json.description,
      'Bad Request: invalid file_id',
    );
    tg.assertNoUnexpected();
    assert.equal((await fetch(`${tg.baseUrl}/file/bot${tg.token}/documents/missing.pdf`)).status, 404);
    assert.throws(() => tg.assertNoUnexpected(), /download of an unknown file/);
  });

  test('an unknown method or a malformed call answers as Telegram and is flagged as unexpected', async () => {
    tg = await startFakeTelegram();
    const unknown = await call('sendTelepathy', { chat_id: 1 });
    assert.deepEqual(unknown.json, { ok: false, error_code: 404, description: 'Not Found' });
    const noChat = await call('sendMessage', { text: 'Hi' });
    assert.equal(noChat.json.description, 'Bad Request: chat_id is empty');
    assert.equal((await call('SENDMESSAGE', { chat_id: 1, text: 'method names ignore case' })).status, 200);
    assert.deepEqual(
      tg.unexpected.map((u) => u.reason),
      ['unknown method sendTelepathy', 'sendMessage without chat_id'],
    );
    assert.throws(() => tg.assertNoUnexpected(), /sendTelepathy[\s\S]*sendMessage without chat_id/);
  });

  test('updates are realistic and deliver() posts them to the webhook with the secret header', async () => {
    tg = await startFakeTelegram();
    const received: { secret: unknown; type: unknown; update: TgUpdate }[] = [];
    const hook = createServer(async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const update = JSON.parse(Buffer.concat(chunks).toString()) as TgUpdate;
      received.push({
        secret: req.headers['x-telegram-bot-api-secret-token'],
        type: req.headers['content-type'],
        update,
      });
      res.end();
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    try {
      await call('setWebhook', { url: hookUrl, secret_token: 's3cret' });
      const text = tg.updates.text({ id: 42, first_name: 'Grace' }, '/start');
      assert.equal(await tg.deliver(text), 200);
      assert.deepEqual(received[0], { secret: 's3cret', type: 'application/json', update: text });
      assert.equal(text.message?.chat.type, 'private');
      assert.equal(text.message?.from?.first_name, 'Grace');
      assert.deepEqual(text.message?.entities, [{ offset: 0, length: 6, type: 'bot_command' }]);

      const photo = tg.updates.photo(42, { bytes: Buffer.from('0123456789abcdef0123') });
      assert.equal(photo.update_id, text.update_id + 1);
      assert.equal(photo.message?.message_id, (text.message?.message_id ?? 0) + 1);
      const largest = photo.message?.photo?.at(-1);
      assert.equal(largest?.file_size, 20);
      const path = (
        (await call('getFile', { file_id: largest?.file_id })).json.result as { file_path: string }
      ).file_path;
      assert.match(path, /^photos\/file_\d+\.jpg$/);

      const press = tg.updates.callback(42, 'yes');
      assert.equal(press.callback_query?.message.from?.id, tg.bot.id);
      assert.equal(
        (await call('answerCallbackQuery', { callback_query_id: press.callback_query?.id })).json.result,
        true,
      );
      const edited = tg.updates.edited(text, '/start again');
      assert.equal(edited.edited_message?.message_id, text.message?.message_id);
      assert.ok(edited.edited_message?.edit_date);
      assert.equal(tg.updates.groupText(-100123, 42, 'hi all').message?.chat.type, 'group');
      assert.equal(tg.updates.channelPost(-100456, 'news').channel_post?.from, undefined);
      assert.equal(tg.updates.myChatMember(42, 'kicked').my_chat_member?.new_chat_member.status, 'kicked');
      assert.equal((await call('sendMessage', { chat_id: 42, text: 'after block' })).status, 403);
      tg.assertNoUnexpected();
    } finally {
      await new Promise<void>((resolve) => hook.close(() => resolve()));
    }
  });
});

describe('fake Telegram getUpdates, as documented', () => {
  test('offsets confirm updates, a negative offset keeps the last ones, a long poll answers when an update comes', async () => {
    tg = await startFakeTelegram();
    const user = { id: 42, first_name: 'Ann' };
    const a = tg.updates.text(user, 'a');
    const b = tg.updates.text(user, 'b');
    const c = tg.updates.text(user, 'c');
    for (const u of [a, b, c]) tg.queue(u);
    const ids = (r: ApiAnswer) => (r.result as TgUpdate[]).map((u) => u.update_id);
    assert.deepEqual(ids((await call('getUpdates', {})).json), [a.update_id, b.update_id, c.update_id]);
    // Not confirmed yet: asked again, they come again; limit bounds the answer.
    assert.deepEqual(ids((await call('getUpdates', { limit: 2 })).json), [a.update_id, b.update_id]);
    // An offset past b confirms a and b.
    assert.deepEqual(ids((await call('getUpdates', { offset: b.update_id + 1 })).json), [c.update_id]);
    assert.equal(tg.polling.pending.length, 1);
    tg.queue(tg.updates.text(user, 'd'));
    tg.queue(tg.updates.text(user, 'e'));
    assert.equal((await call('getUpdates', { offset: -1 })).json.result instanceof Array, true);
    assert.equal(tg.polling.pending.length, 1, 'a negative offset forgets all but the last');

    // A long poll waits; an update queued meanwhile answers it at once.
    const last = tg.polling.pending[0].update_id;
    const waiting = call('getUpdates', { offset: last + 1, timeout: 30 });
    while (!tg.polling.waiting) await new Promise((r) => setTimeout(r, 5));
    const f = tg.updates.text(user, 'f');
    const started = Date.now();
    tg.queue(f);
    assert.deepEqual(ids((await waiting).json), [f.update_id]);
    assert.ok(Date.now() - started < 1000);
    // A short poll with nothing new answers an empty list at once.
    assert.deepEqual((await call('getUpdates', { offset: f.update_id + 1 })).json.result, []);
    tg.assertNoUnexpected();
  });

  test('409 beside a webhook and when another getUpdates takes over; allowed_updates leaves other kinds out', async () => {
    tg = await startFakeTelegram();
    const waiting = call('getUpdates', { timeout: 30 });
    while (!tg.polling.waiting) await new Promise((r) => setTimeout(r, 5));
    const second = call('getUpdates', { timeout: 30 });
    const first = await waiting;
    assert.equal(first.status, 409);
    assert.match(first.json.description ?? '', /^Conflict: terminated by other getUpdates request/);
    while (!tg.polling.waiting) await new Promise((r) => setTimeout(r, 5));
    await call('setWebhook', { url: 'https://example.com/hook' });
    const ended = await second;
    assert.equal(ended.status, 409);
    assert.equal(ended.json.description, 'Conflict: terminated by setWebhook request');
    const beside = await call('getUpdates', {});
    assert.equal(beside.status, 409);
    assert.match(beside.json.description ?? '', /can't use getUpdates method while webhook is active/);
    await call('deleteWebhook', {});

    assert.equal((await call('getUpdates', { allowed_updates: ['message'] })).status, 200);
    tg.queue(tg.updates.channelPost({ id: -100, type: 'channel', title: 'C' }, 'news'));
    tg.queue(tg.updates.callback({ id: 7, first_name: 'Bo' }, 'x'));
    assert.equal(tg.polling.pending.length, 0, 'kinds not asked for are not kept');
    tg.queue(tg.updates.text({ id: 7, first_name: 'Bo' }, 'hi'));
    assert.equal(tg.polling.pending.length, 1);
    const bad = await call('getUpdates', { offset: 'soon' });
    assert.equal(bad.status, 400);
    assert.throws(() => tg.assertNoUnexpected(), /non-integer offset/);
  });
});

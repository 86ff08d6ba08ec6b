import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatedStats } from '../fakes/generated-file.ts';
import { type FakeViber, startFakeViber } from '../fakes/viber.ts';
import { type FakeVk, startFakeVk } from '../fakes/vk.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { MEDIA } from '../media-fixtures.ts';
import { chatsOf, messagesOf } from '../replies.ts';
import { makeTeam } from './chats-fixtures.ts';

const MiB = 1024 * 1024;

type Attachment = { url: string; name: string; contentType: string; size: number };
type Message = { text: string; attachments: Attachment[] };

/** Every file in the server's storage (DATA_DIR/files/xx/key). */
const storedFiles = (s: TestServer) => {
  const root = join(s.dataDir, 'files');
  try {
    return readdirSync(root).flatMap((d) => readdirSync(join(root, d)));
  } catch {
    return [];
  }
};

/**
 * Issue 29, point 2: provider media are streamed into storage under the type's limit, never held whole; at most
 * MEDIA_DOWNLOAD_CONCURRENCY download at once; a file past the limit is a visible notice and leaves no bytes; what
 * is kept is typed by its content. The fakes make up their huge files as they send them.
 */
describe('inbound media: streamed, limited, capped, typed by content', () => {
  let s: TestServer;
  let vk: FakeVk;
  let vb: FakeViber;
  before(async () => {
    vk = await startFakeVk();
    vk.perSecond = 1_000;
    vb = await startFakeViber();
    s = await startTestServer({ env: { VK_API_BASE_URL: vk.baseUrl, VIBER_API_BASE_URL: vb.baseUrl } });
    vb.reach = (url) => url.replace('http://localhost:3000', s.url);
  });
  after(async () => {
    await s.close();
    await vk.close();
    await vb.close();
  });

  async function connectVk(server = s): Promise<{ org: TestOrg; hook: string }> {
    const org = await createOrganisation(server);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'vk_bot',
      name: `VK ${Math.random().toString(36).slice(2, 8)}`,
      groupId: String(vk.groupId),
      token: vk.token,
      secret: vk.secret,
      confirmation: vk.confirmation,
      teamId,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { org, hook: `${server.url}/api/webhooks/vk_bot/${res.body.entity.id}` };
  }

  async function connectViber(): Promise<{ org: TestOrg; hook: string }> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const res = await org.admin.api.post('/api/channels', {
      type: 'viber_bot',
      name: `Viber ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      token: vb.token,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { org, hook: `${s.url}/api/webhooks/viber_bot/${res.body.entity.id}` };
  }

  /** A VK message from `from` with one photo at `url`, as VK's Callback API posts it. */
  const vkPhoto = (from: number, url: string, text = '') =>
    vk.messageNew(from, {
      text,
      attachments: [
        {
          type: 'photo',
          photo: { id: from, owner_id: from, sizes: [{ type: 'x', url, width: 1, height: 1 }] },
        },
      ],
    });

  const messagesOfOrg = async (org: TestOrg): Promise<Message[]> => {
    const out: Message[] = [];
    for (const chat of await chatsOf(org)) out.push(...(await messagesOf(org, chat.id)));
    return out;
  };

  const filesOf = async (org: TestOrg, server = s) =>
    Number(
      (
        await server.db.query<{ n: string }>('select count(*) as n from files where organisation_id = $1', [
          org.id,
        ])
      )[0]?.n,
    );

  test('a file past the type limit is the notice in the text, no bytes kept: refused by its size up front, or cut off when the count passes it', async () => {
    const before = storedFiles(s).length;
    // VK (200 MB): a 210 MiB photo announced by its Content-Length is never read.
    const { org, hook } = await connectVk();
    vk.generated = generatedStats();
    const announced = vk.addGeneratedMedia({ size: 210 * MiB, type: 'image/jpeg', head: MEDIA.jpg });
    assert.deepEqual(await vk.deliver(hook, vkPhoto(901, announced, 'look')), { status: 200, text: 'ok' });
    assert.ok(vk.generated.sent < 16 * MiB, `read before refusing: ${vk.generated.sent} bytes`);
    // Viber (50 MB): a chunked answer that tells nothing up front is cut off once past 50 MB.
    const viber = await connectViber();
    vb.generated = generatedStats();
    const chunked = vb.addGeneratedMedia({
      size: 60 * MiB,
      type: 'image/jpeg',
      head: MEDIA.jpg,
      announce: false,
    });
    const user = { id: 'big-sender=', name: 'Big Sender' };
    assert.equal(
      await vb.deliver(viber.hook, vb.message(user, { type: 'picture', text: 'huge', media: chunked })),
      200,
    );
    assert.ok(vb.generated.sent < 60 * MiB, 'the download stopped before the end');
    assert.equal(vb.generated.aborted, 1);

    const [vkMessage] = await messagesOfOrg(org);
    assert.equal(vkMessage?.text, 'look\n[photo.jpg of 210 MB: too large to receive]');
    assert.deepEqual(vkMessage?.attachments, []);
    const [viberMessage] = await messagesOfOrg(viber.org);
    assert.equal(viberMessage?.text, 'huge\n[picture.jpg of more than 50 MB: too large to receive]');
    assert.deepEqual(viberMessage?.attachments, []);
    assert.equal(await filesOf(org), 0);
    assert.equal(await filesOf(viber.org), 0);
    assert.equal(storedFiles(s).length, before, 'the partial bytes were removed');
  });

  test('a provider failing midway: the request is refused for a retry (503), nothing of the message kept', async () => {
    const { org, hook } = await connectVk();
    const before = storedFiles(s).length;
    const photo = (url: string) => ({
      type: 'photo',
      photo: { id: 1, owner_id: 940, sizes: [{ type: 'x', url, width: 1, height: 1 }] },
    });
    const whole = vk.addMedia(MEDIA.jpg, 'image/jpeg');
    const broken = vk.addGeneratedMedia({
      size: 8 * MiB,
      type: 'image/jpeg',
      head: MEDIA.jpg,
      failAfter: MiB,
    });
    const event = vk.messageNew(940, { text: 'two', attachments: [photo(whole), photo(broken)] });
    assert.equal((await vk.deliver(hook, event)).status, 503);
    assert.equal(await filesOf(org), 0, 'the first photo, kept before the second failed, is removed');
    assert.equal(storedFiles(s).length, before, 'no bytes left in storage');
    assert.equal((await chatsOf(org)).length, 0);
  });

  test('four 150 MiB photos at once: all kept whole, the process grows by less than 100 MiB', async () => {
    const { org, hook } = await connectVk();
    vk.generated = generatedStats();
    const size = 150 * MiB;
    const events = [1, 2, 3, 4].map((i) =>
      vkPhoto(910 + i, vk.addGeneratedMedia({ size, type: 'image/jpeg', head: MEDIA.jpg })),
    );
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 5);
    try {
      const answers = await Promise.all(events.map((e) => vk.deliver(hook, e)));
      assert.deepEqual(
        answers,
        events.map(() => ({ status: 200, text: 'ok' })),
      );
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage.rss());
    const growth = peak - baseline;
    console.log(
      `RSS ${(baseline / MiB).toFixed(0)} MiB before, ${(peak / MiB).toFixed(0)} MiB at the peak (+${(growth / MiB).toFixed(0)} MiB) for ${(vk.generated.sent / MiB).toFixed(0)} MiB received`,
    );
    assert.equal(vk.generated.sent, 4 * size);
    assert.equal(vk.generated.peak, 4, 'the four downloads ran at once (MEDIA_DOWNLOAD_CONCURRENCY 4)');
    assert.ok(growth < 100 * MiB, `RSS grew by ${(growth / MiB).toFixed(0)} MiB`);
    const files = (await messagesOfOrg(org)).flatMap((m) => m.attachments);
    assert.equal(files.length, 4);
    for (const f of files) {
      assert.equal(f.size, size);
      assert.equal(f.contentType, 'image/jpeg');
    }
    // An operator opening them: the files are streamed from storage, never read whole either.
    const servedFrom = process.memoryUsage.rss();
    let servedPeak = servedFrom;
    const servedSampler = setInterval(() => {
      servedPeak = Math.max(servedPeak, process.memoryUsage.rss());
    }, 5);
    try {
      const lengths = await Promise.all(
        files.map(async (f) => {
          const res = await fetch(s.url + f.url);
          assert.equal(res.headers.get('content-length'), String(size));
          let n = 0;
          for await (const chunk of res.body as AsyncIterable<Uint8Array>) n += chunk.length;
          return n;
        }),
      );
      assert.deepEqual(lengths, [size, size, size, size]);
    } finally {
      clearInterval(servedSampler);
    }
    const served = servedPeak - servedFrom;
    console.log(`RSS +${(served / MiB).toFixed(0)} MiB while the four were downloaded from /api/files`);
    assert.ok(served < 100 * MiB, `RSS grew by ${(served / MiB).toFixed(0)} MiB while serving`);
  });

  test('the content decides the type: a claimed picture that is not one is kept as what it is, and downloaded, never shown', async () => {
    const { org, hook } = await connectVk();
    const noise = new Uint8Array([0x00, 0x13, 0x37, 0x42, 0x99, 0xaa, 0x01, 0x02]);
    const page = new TextEncoder().encode('<html><script>alert(document.cookie)</script></html>');
    const sent = [
      vkPhoto(920, vk.addMedia(noise, 'image/jpeg'), 'noise'),
      vkPhoto(921, vk.addMedia(page, 'image/png'), 'page'),
      vkPhoto(922, vk.addMedia(MEDIA.png, 'image/jpeg'), 'png'),
      vkPhoto(923, vk.addMedia(MEDIA.jpg, 'image/jpeg'), 'jpeg'),
    ];
    for (const e of sent) assert.deepEqual(await vk.deliver(hook, e), { status: 200, text: 'ok' });
    const byText = new Map((await messagesOfOrg(org)).map((m) => [m.text, m.attachments[0]]));
    assert.equal(byText.get('noise')?.contentType, 'application/octet-stream');
    assert.equal(byText.get('page')?.contentType, 'text/plain');
    assert.equal(byText.get('png')?.contentType, 'image/png', 'a PNG claimed as a JPEG is kept as a PNG');
    assert.equal(byText.get('jpeg')?.contentType, 'image/jpeg');
    for (const [text, bytes, disposition] of [
      ['noise', noise, 'attachment'],
      ['page', page, 'attachment'],
      ['jpeg', MEDIA.jpg, 'inline'],
    ] as const) {
      const res = await fetch(s.url + byText.get(text)?.url);
      assert.equal(res.headers.get('content-disposition'), disposition, text);
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), bytes, 'the bytes as sent');
    }
  });

  test('MEDIA_DOWNLOAD_CONCURRENCY: five files at once are downloaded two at a time, all kept', async () => {
    const capped = await startTestServer({
      env: { VK_API_BASE_URL: vk.baseUrl, MEDIA_DOWNLOAD_CONCURRENCY: '2' },
    });
    try {
      const { org, hook } = await connectVk(capped);
      vk.generated = generatedStats();
      const events = [1, 2, 3, 4, 5].map((i) =>
        vkPhoto(
          930 + i,
          vk.addGeneratedMedia({ size: MiB / 2, type: 'image/jpeg', head: MEDIA.jpg, pauseMs: 20 }),
        ),
      );
      const answers = await Promise.all(events.map((e) => vk.deliver(hook, e)));
      assert.deepEqual(
        answers,
        events.map(() => ({ status: 200, text: 'ok' })),
      );
      assert.equal(vk.generated.peak, 2);
      assert.equal(vk.generated.sent, (5 * MiB) / 2);
      const all: Message[] = [];
      for (const chat of (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items)
        all.push(...(await org.admin.api.get(`/api/chats/${chat.id}/messages`)).body.entity.items);
      assert.equal(all.flatMap((m) => m.attachments).length, 5);
    } finally {
      await capped.close();
    }
  });

  test('STORAGE_QUOTA_MB: a file that would pass the quota is a notice, not kept; another organisation still stores', async () => {
    const quota = await startTestServer({ env: { VK_API_BASE_URL: vk.baseUrl, STORAGE_QUOTA_MB: '1' } });
    try {
      const { org, hook } = await connectVk(quota);
      const first = vk.addGeneratedMedia({ size: 700 * 1024, type: 'image/jpeg', head: MEDIA.jpg });
      assert.deepEqual(await vk.deliver(hook, vkPhoto(1001, first, 'first')), { status: 200, text: 'ok' });
      assert.equal(await filesOf(org, quota), 1);
      const second = vk.addGeneratedMedia({ size: 700 * 1024, type: 'image/jpeg', head: MEDIA.jpg });
      assert.deepEqual(await vk.deliver(hook, vkPhoto(1002, second, 'second')), { status: 200, text: 'ok' });
      assert.equal(await filesOf(org, quota), 1, 'nothing past the quota is kept');
      const full = (await messagesOfOrg(org)).find((m) => m.text.startsWith('second'));
      assert.ok(full);
      assert.match(full.text, /not kept, the file storage of this organisation is full\]$/);
      assert.deepEqual(full.attachments, []);
      // The quota is the organisation's own.
      const other = await connectVk(quota);
      const third = vk.addGeneratedMedia({ size: 700 * 1024, type: 'image/jpeg', head: MEDIA.jpg });
      assert.deepEqual(await vk.deliver(other.hook, vkPhoto(1003, third, 'third')), {
        status: 200,
        text: 'ok',
      });
      assert.equal(await filesOf(other.org, quota), 1);
    } finally {
      await quota.close();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ATTACHMENT_MAX_BYTES } from '@smartconnect/contracts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { chatOf, goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

function form(bytes: Uint8Array, type: string, name: string): FormData {
  const f = new FormData();
  f.append('file', new Blob([bytes], { type }), name);
  return f;
}

describe('attachments: operators upload files and send them', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  test('a picture, a PDF and a text file are stored with the type read from their content, served back, and sent in a message', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const chatId: string = (await inbound(s, ch, { client: `c-${Math.random()}` })).body.entity.chatId;
    assert.equal((await chatOf(op, chatId)).operator.id, op.id);

    // Declared as text, named .txt: the content says PNG.
    const png = await op.api.post('/api/files', form(PNG, 'text/plain', 'photo.txt'));
    assert.equal(png.status, 200, JSON.stringify(png.body));
    assert.equal(png.body.entity.contentType, 'image/png');
    assert.equal(png.body.entity.size, PNG.length);
    assert.equal(png.body.entity.name, 'photo.txt');
    assert.match(png.body.entity.url, /^https?:\/\/.+\/api\/files\/[A-Za-z0-9_-]{20,}$/);
    const pdf = await op.api.post('/api/files', form(PDF, 'application/octet-stream', 'invoice.pdf'));
    assert.equal(pdf.body.entity.contentType, 'application/pdf');
    const txt = await op.api.post('/api/files', form(Buffer.from('Привет, order #42\n'), '', 'note.txt'));
    assert.equal(txt.body.entity.contentType, 'text/plain');

    // Served: a picture in place, anything else as a download, never sniffed or scripted.
    const path = (url: string) => new URL(url).pathname;
    const img = await fetch(s.url + path(png.body.entity.url));
    assert.equal(img.headers.get('content-type'), 'image/png');
    assert.equal(img.headers.get('content-disposition'), 'inline');
    assert.deepEqual(Buffer.from(await img.arrayBuffer()), PNG);
    const doc = await fetch(s.url + path(pdf.body.entity.url));
    assert.equal(doc.headers.get('content-disposition'), 'attachment');
    assert.match(doc.headers.get('content-security-policy') ?? '', /sandbox/);

    const sent = await op.api.post(`/api/chats/${chatId}/messages`, {
      text: '',
      attachments: [png.body.entity, pdf.body.entity],
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(
      sent.body.entity.attachments.map((a: { name: string; contentType: string }) => [a.name, a.contentType]),
      [
        ['photo.txt', 'image/png'],
        ['invoice.pdf', 'application/pdf'],
      ],
    );
    const page = (await op.api.get(`/api/chats/${chatId}/messages`)).body.entity;
    assert.equal(page.items.at(-1).attachments.length, 2);
  });

  test('a type not on the list, a file over the limit, no file, and no session are refused', async () => {
    const org = await createOrganisation(s);
    const op = await org.user({});
    // An HTML page named like a picture is plain UTF-8: stored as text/plain (served as a download), never as HTML.
    const html = await op.api.post(
      '/api/files',
      form(Buffer.from('<script>alert(1)</script>'), 'text/html', 'x.png'),
    );
    assert.equal(html.status, 200);
    assert.equal(html.body.entity.contentType, 'text/plain');
    // Binary of an unknown kind.
    const bin = await op.api.post(
      '/api/files',
      form(Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0]), '', 'a.bin'),
    );
    assert.equal(bin.status, 400);
    assert.equal(bin.body.code, 'fileUploadException');
    assert.equal(bin.body.error.fields.file, 'Value specified incorrectly');
    // An executable (ELF) is recognised, and refused.
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]);
    assert.equal((await op.api.post('/api/files', form(elf, 'image/png', 'cat.png'))).status, 400);
    // Over the limit.
    const big = Buffer.concat([PNG, Buffer.alloc(ATTACHMENT_MAX_BYTES)]);
    const tooBig = await op.api.post('/api/files', form(big, 'image/png', 'big.png'));
    assert.equal(tooBig.status, 413);
    assert.equal(tooBig.body.code, 'payloadTooLargeException');
    // Empty form, JSON body, no token.
    assert.equal((await op.api.post('/api/files', new FormData())).status, 400);
    assert.equal((await op.api.post('/api/files', { file: 'x' })).status, 400);
    assert.equal((await s.api.post('/api/files', form(PNG, 'image/png', 'p.png'))).status, 401);
  });

  test('malformed multipart on every upload route (no boundary, a cut-off body, a broken header) is 400, never 500', async () => {
    const org = await createOrganisation(s);
    const op = await org.user({});
    const good =
      '--b1\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n';
    const bodies: [string, string, string][] = [
      ['no boundary', 'multipart/form-data', `${good}x\r\n--b1--\r\n`],
      ['empty boundary', 'multipart/form-data; boundary=', `${good}x\r\n--b1--\r\n`],
      ['boundary not in the body', 'multipart/form-data; boundary=zzz', `${good}x\r\n--b1--\r\n`],
      ['cut off', 'multipart/form-data; boundary=b1', good.slice(0, 40)],
      [
        'broken part header',
        'multipart/form-data; boundary=b1',
        '--b1\r\nContent-Disposition\r\n\r\nx\r\n--b1--\r\n',
      ],
      ['no closing delimiter', 'multipart/form-data; boundary=b1', `${good}x`],
      ['mixed', 'multipart/mixed', 'x'],
    ];
    const routes: [string, string][] = [
      ['POST', '/api/files'],
      ['PUT', '/api/auth/acc/photo'],
      ['PUT', `/api/users/${op.id}/photo`],
    ];
    for (const [method, path] of routes)
      for (const [what, type, body] of bodies) {
        const api = path.startsWith('/api/users/') ? org.admin.api : op.api;
        const res = await api.call(method, path, body, { 'content-type': type });
        assert.equal(res.status, 400, `${method} ${path} ${what}: ${JSON.stringify(res.body)}`);
        // A form the parser cannot read is a validation error; one it reads without finding a file part is the
        // route's own 'no file' answer.
        const unreadable = ['no boundary', 'no closing delimiter', 'mixed'].includes(what);
        assert.equal(
          res.body.code,
          unreadable ? 'validationException' : 'fileUploadException',
          `${method} ${path} ${what}`,
        );
      }
  });
});

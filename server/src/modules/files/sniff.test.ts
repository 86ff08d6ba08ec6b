import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPlainText, receivedType } from './sniff.ts';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]);
// The signature and an IHDR chunk: file-type reads the first chunk to tell a PNG from an APNG.
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
  8, 2, 0, 0, 0, 0, 0, 0, 0,
]);
const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n', 'latin1');
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);
const ELF = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
const HTML = Buffer.from('<html><script>alert(1)</script></html>');

test('a declared type the content bears out is kept, with its parameters and within its family', async () => {
  assert.equal(await receivedType(JPEG, 'image/jpeg', false), 'image/jpeg');
  assert.equal(await receivedType(PDF, 'application/pdf', false), 'application/pdf');
  // An m4a voice note is an mp4 container: the provider's more precise word stays.
  assert.equal(await receivedType(MP4, 'audio/mp4', false), 'audio/mp4');
  assert.equal(await receivedType(MP4, 'video/mp4; codecs=avc1', false), 'video/mp4; codecs=avc1');
});

test('the content decides: another known type is kept as itself, unknown bytes as application/octet-stream', async () => {
  assert.equal(await receivedType(PNG, 'image/jpeg', false), 'image/png');
  assert.equal(
    await receivedType(JPEG, 'image/jpg', false),
    'image/jpeg',
    'an alias gives way to the standard name',
  );
  assert.equal(await receivedType(PDF, 'application/octet-stream', false), 'application/pdf');
  assert.equal(await receivedType(ELF, 'image/jpeg', false), 'application/x-elf');
  assert.equal(
    await receivedType(Buffer.from([1, 2, 3, 0, 0]), 'image/jpeg', false),
    'application/octet-stream',
  );
  assert.equal(await receivedType(Buffer.alloc(0), 'image/png', false), 'application/octet-stream');
  // A page claiming to be a picture is text, never HTML shown in place.
  assert.equal(await receivedType(HTML, 'image/jpeg', false), 'text/plain');
  assert.equal(await receivedType(Buffer.from('a,b\n1,2\n'), 'text/csv', false), 'text/csv');
});

test('plain text: a character cut at the end of a head is no fault, at the end of the file it is', () => {
  const cut = Buffer.from('привет').subarray(0, 5);
  assert.equal(isPlainText(cut, true), true);
  assert.equal(isPlainText(cut, false), false);
  assert.equal(isPlainText(Buffer.from('a\u0001b'), false), false);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downloadedName } from './download.ts';

const h = (disposition?: string) => new Headers(disposition ? { 'content-disposition': disposition } : {});

test("a downloaded file's name: the Content-Disposition's (filename* first), else a file-like last URL segment", () => {
  assert.equal(
    downloadedName(h(`attachment; filename="a.pdf"; filename*=UTF-8''%C3%A9t%C3%A9.pdf`), 'https://x/y'),
    'été.pdf',
  );
  assert.equal(downloadedName(h('inline; filename="report 1.xlsx"'), 'https://x/y'), 'report 1.xlsx');
  // A path in the name is not ours to keep.
  assert.equal(downloadedName(h('attachment; filename="../../etc/passwd"'), 'https://x/y'), 'passwd');
  // A malformed header names nothing; the URL still may.
  assert.equal(
    downloadedName(h('attachment; filename='), 'https://cdn.x/v/t59/Price%20list.pdf?oh=1'),
    'Price list.pdf',
  );
  assert.equal(
    downloadedName(h(), 'https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=1&signature=s'),
    undefined,
  );
  assert.equal(downloadedName(h(), 'https://cdn.x/files/12345'), undefined);
  assert.equal(downloadedName(h(), 'https://cdn.x/files/%E0%A4%A'), undefined);
  assert.equal(downloadedName(h(), 'not a url'), undefined);
});

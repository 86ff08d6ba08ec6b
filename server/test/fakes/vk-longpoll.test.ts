import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { type FakeVk, startFakeVk } from './vk.ts';

let vk: FakeVk;
afterEach(() => vk?.close());

const method = async (name: string, params: Record<string, string>) => {
  const res = await fetch(`${vk.baseUrl}/method/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ access_token: vk.token, v: '5.199', ...params }).toString(),
  });
  return (await res.json()) as {
    response?: Record<string, string>;
    error?: { error_code: number; error_msg: string };
  };
};
const check = async (server: string, key: string, ts: string, wait = '0') =>
  (await (await fetch(`${server}?act=a_check&key=${key}&ts=${ts}&wait=${wait}`)).json()) as {
    ts?: string;
    updates?: { type: string; object: { message?: { text: string } } }[];
    failed?: number;
  };

describe('fake VK Bots Long Poll API, as documented', () => {
  test('off until turned on (community management right); a server, a key and the latest ts', async () => {
    vk = await startFakeVk();
    const off = await method('groups.getLongPollServer', { group_id: String(vk.groupId) });
    assert.equal(off.error?.error_code, 100);
    assert.match(off.error?.error_msg ?? '', /longpoll for this group is not enabled/);
    const denied = await method('groups.setLongPollSettings', { group_id: String(vk.groupId), enabled: '1' });
    assert.equal(denied.error?.error_code, 15, 'without the management right');
    vk.mask |= 262144;
    const set = await method('groups.setLongPollSettings', {
      group_id: String(vk.groupId),
      enabled: '1',
      api_version: '5.199',
      message_new: '1',
    });
    assert.equal(set.response, 1);
    const on = await method('groups.getLongPollServer', { group_id: String(vk.groupId) });
    assert.equal(on.response?.server, `${vk.baseUrl}/lp/${vk.groupId}`);
    assert.match(on.response?.key ?? '', /^[0-9a-f]{40}$/);
    assert.equal(on.response?.ts, '0');
  });

  test('events after ts, a wait answered when one comes, and the failed answers', async () => {
    vk = await startFakeVk();
    vk.longPoll.enabled = true;
    const { server, key } = vk.longPoll.server(vk.baseUrl);
    vk.longPoll.push(vk.messageNew(5, { text: 'one' }));
    vk.longPoll.push(vk.messageNew(5, { text: 'two' }));
    const first = await check(server, key, '0');
    assert.equal(first.ts, '2');
    assert.deepEqual(
      first.updates?.map((u) => [u.type, u.object.message?.text]),
      [
        ['message_new', 'one'],
        ['message_new', 'two'],
      ],
    );
    assert.deepEqual(
      (await check(server, key, '1')).updates?.map((u) => u.object.message?.text),
      ['two'],
    );
    const waiting = check(server, key, '2', '25');
    while (!vk.longPoll.waiting) await new Promise((r) => setTimeout(r, 5));
    vk.longPoll.push(vk.messageNew(5, { text: 'three' }));
    const third = await waiting;
    assert.equal(third.ts, '3');
    assert.deepEqual(
      third.updates?.map((u) => u.object.message?.text),
      ['three'],
    );
    assert.deepEqual(await check(server, 'not-a-key', '3'), { failed: 2 });
    assert.deepEqual(await check(server, key, '99'), { failed: 3 });
    vk.longPoll.loseHistory();
    assert.deepEqual(await check(server, key, '1'), { failed: 1, ts: '3' });
    vk.longPoll.expireKey();
    assert.deepEqual(await check(server, key, '3'), { failed: 2 });
  });
});

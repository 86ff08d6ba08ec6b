import type { DistributionMethod } from '@smartconnect/contracts';
import type { StoredEvent } from '../../src/realtime/bus.ts';
import type { Call, TestOrg, TestServer, TestUser } from '../helpers.ts';

export type TestChannel = { id: string; inboundKey: string; webhookSecret: string; teamId: string };

/** A team made through the API, with the given members and routing settings. */
export async function makeTeam(
  org: TestOrg,
  opts: {
    method?: DistributionMethod;
    dialogLimit?: number;
    autoCloseMinutes?: number | null;
    autoRedistributionMinutes?: number | null;
    inactivityHours?: number;
    memberIds?: string[];
  } = {},
): Promise<string> {
  const res = await org.admin.api.post('/api/teams', {
    name: `Team ${Math.random().toString(36).slice(2, 10)}`,
    description: 'Support',
    distributionMethod: opts.method ?? 'round_robin',
    dialogLimit: opts.dialogLimit ?? 5,
    autoCloseMinutes: opts.autoCloseMinutes ?? null,
    autoRedistributionMinutes: opts.autoRedistributionMinutes ?? null,
    inactivityHours: opts.inactivityHours ?? 0,
    memberIds: opts.memberIds ?? [],
  });
  if (res.status !== 200) throw new Error(`team: ${JSON.stringify(res.body)}`);
  return res.body.entity.id;
}

export async function setMembers(org: TestOrg, teamId: string, memberIds: string[]) {
  const res = await org.admin.api.patch(`/api/teams/${teamId}`, { memberIds });
  if (res.status !== 200) throw new Error(`members: ${JSON.stringify(res.body)}`);
}

/** An API channel of the team; webhookUrl defaults to a URL nobody listens on. */
export async function makeChannel(
  org: TestOrg,
  teamId: string,
  extra: Record<string, unknown> = {},
): Promise<TestChannel> {
  const res = await org.admin.api.post('/api/channels', {
    type: 'api',
    name: `API ${Math.random().toString(36).slice(2, 10)}`,
    teamId,
    webhookUrl: 'http://127.0.0.1:9/unused',
    ...extra,
  });
  if (res.status !== 200) throw new Error(`channel: ${JSON.stringify(res.body)}`);
  return {
    id: res.body.entity.id,
    inboundKey: res.body.entity.inboundKey,
    webhookSecret: res.body.entity.webhookSecret,
    teamId,
  };
}

let n = 0;
/** Posts one customer message to the channel's inbound endpoint. */
export function inbound(
  s: TestServer,
  ch: TestChannel,
  opts: { client?: string; name?: string; text?: string; externalMessageId?: string; key?: string } = {},
): Promise<Call> {
  return s.api.as(opts.key ?? ch.inboundKey).post(`/api/channels/${ch.id}/inbound`, {
    externalMessageId: opts.externalMessageId ?? `m-${Date.now()}-${n++}`,
    client: { externalId: opts.client ?? 'client-1', name: opts.name ?? 'Ann Client' },
    text: opts.text ?? 'Hello',
  });
}

export async function goOnline(user: TestUser, status: 'online' | 'break' | 'offline' = 'online') {
  const res = await user.api.patch('/api/presence', { status });
  if (res.status !== 200) throw new Error(`presence: ${JSON.stringify(res.body)}`);
}

/** Collects the events published on the bus from now on. */
export function recordEvents(s: TestServer): { events: StoredEvent[]; stop(): void } {
  const events: StoredEvent[] = [];
  const stop = s.app.bus.subscribe((e) => events.push(e));
  return { events, stop };
}

export async function chatOf(user: TestUser, chatId: string) {
  const res = await user.api.get(`/api/chats/${chatId}`);
  if (res.status !== 200) throw new Error(`chat: ${JSON.stringify(res.body)}`);
  return res.body.entity;
}

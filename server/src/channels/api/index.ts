import type { ChannelAdapter } from '../types.ts';
import { connectApi } from './connect.ts';
import { normalizeInbound } from './normalize.ts';
import { sendWebhook } from './send.ts';
import { verifyInbound } from './verify.ts';

/** The `api` channel: integrators push customer messages with a key and receive replies on a signed webhook. */
export const apiAdapter: ChannelAdapter = {
  type: 'api',
  connect: connectApi,
  verify: verifyInbound,
  normalize: normalizeInbound,
  send: sendWebhook,
};

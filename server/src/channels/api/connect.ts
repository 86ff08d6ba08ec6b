import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import { OutboundRefusedError } from '../../lib/outbound.ts';
import type { AdapterChannel, AdapterContext, Connected } from '../types.ts';

/**
 * An API channel needs only its webhook URL, refused when it names a local or private address (checked again
 * when it is called). On creation we generate the integrator's inbound key and our webhook signing secret,
 * shown once; an update keeps them.
 */
export async function connectApi(
  ctx: AdapterContext,
  _channel: { id: string },
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const webhookUrl = (input.webhookUrl as string | undefined) ?? (current?.settings.webhookUrl as string);
  try {
    if (input.webhookUrl !== undefined) await ctx.outbound.check(webhookUrl);
  } catch (err) {
    if (err instanceof OutboundRefusedError)
      throw new AppError('validationException', { webhookUrl: M.addressNotAllowed });
    throw err;
  }
  if (current) return { settings: { webhookUrl }, secrets: current.secrets };
  const inboundKey = randomToken();
  const webhookSecret = randomToken();
  return {
    settings: { webhookUrl },
    secrets: { webhookSecret },
    shownOnce: { inboundKey, webhookSecret },
    inboundKeyHash: hashToken(inboundKey),
  };
}

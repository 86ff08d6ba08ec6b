import { randomUUID } from 'node:crypto';
import {
  FIELD_MESSAGES as M,
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
  type WebhookEndpointSecretDto,
  type WebhookEnvelope,
  type webhookEndpointCreateSchema,
  type webhookEndpointUpdateSchema,
} from '@smartconnect/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { encryptSecret, randomToken } from '../../lib/crypto.ts';
import { OutboundRefusedError } from '../../lib/outbound.ts';
import { presentDelivery, presentEndpoint } from './presenter.ts';
import * as Q from './queries.ts';
import { attempt } from './send.ts';

type Create = z.output<typeof webhookEndpointCreateSchema>;
type Update = z.output<typeof webhookEndpointUpdateSchema>;

/** A new signing secret: `whsec_` and 256 random bits, as the receiver pastes it into its configuration. */
const newSecret = () => `whsec_${randomToken()}`;

/** Refuses a URL naming a local or private address now; sending checks the address connected to again. */
async function checkUrl(app: AppContext, url: string): Promise<void> {
  try {
    await app.outbound.check(url);
  } catch (err) {
    if (err instanceof OutboundRefusedError)
      throw new AppError('validationException', { url: M.addressNotAllowed });
    throw err;
  }
}

async function endpointOf(app: AppContext, auth: AuthContext, id: string): Promise<Q.EndpointRow> {
  const row = await Q.findEndpoint(app.db, auth.organisationId, id);
  if (!row) throw new AppError('notFoundException');
  return row;
}

export async function listEndpoints(app: AppContext, auth: AuthContext): Promise<WebhookEndpointDto[]> {
  return (await Q.listEndpoints(app.db, auth.organisationId)).map(presentEndpoint);
}

export async function getEndpoint(
  app: AppContext,
  auth: AuthContext,
  id: string,
): Promise<WebhookEndpointDto> {
  return presentEndpoint(await endpointOf(app, auth, id));
}

/** Subscribes a URL; the answer carries its signing secret, shown this once. */
export async function createEndpoint(
  app: AppContext,
  auth: AuthContext,
  input: Create,
): Promise<WebhookEndpointSecretDto> {
  await checkUrl(app, input.url);
  const secret = newSecret();
  const row = await app.db.tx(async (q) => {
    if ((await Q.countEndpoints(q, auth.organisationId)) >= WEBHOOK_LIMITS.endpointsMax)
      throw new AppError('validationException', { url: M.quantityIncorrect });
    return Q.insertEndpoint(q, {
      orgId: auth.organisationId,
      url: input.url,
      description: input.description,
      eventTypes: input.eventTypes,
      secretSealed: encryptSecret(app.config.secretKey, secret),
    });
  });
  return { ...presentEndpoint(row), secret };
}

/** Changes an endpoint; enabling it again clears its failure record, disabling it stops its deliveries. */
export async function updateEndpoint(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: Update,
): Promise<WebhookEndpointDto> {
  if (input.url !== undefined) await checkUrl(app, input.url);
  const { enabled, ...patch } = input;
  const row = await Q.updateEndpoint(app.db, auth.organisationId, id, patch, enabled);
  if (!row) throw new AppError('notFoundException');
  return presentEndpoint(row);
}

/** A new signing secret, shown this once; the old one stops working at once. */
export async function rotateSecret(
  app: AppContext,
  auth: AuthContext,
  id: string,
): Promise<WebhookEndpointSecretDto> {
  const secret = newSecret();
  const row = await Q.updateEndpoint(
    app.db,
    auth.organisationId,
    id,
    { secretSealed: encryptSecret(app.config.secretKey, secret) },
    undefined,
  );
  if (!row) throw new AppError('notFoundException');
  return { ...presentEndpoint(row), secret };
}

export async function deleteEndpoint(
  app: AppContext,
  auth: AuthContext,
  id: string,
): Promise<{ id: string }> {
  if (!(await Q.deleteEndpoint(app.db, auth.organisationId, id))) throw new AppError('notFoundException');
  return { id };
}

export async function listDeliveries(
  app: AppContext,
  auth: AuthContext,
  id: string,
  page: { limit: number; offset: number },
): Promise<{ items: WebhookDeliveryDto[]; total: number }> {
  const endpoint = await endpointOf(app, auth, id);
  const { rows, total } = await Q.listDeliveries(app.db, endpoint.id, page.limit, page.offset);
  return { items: rows.map(presentDelivery), total };
}

/** Sends a `ping` event to the endpoint now (even a disabled one) and answers its logged delivery. */
export async function sendTestEvent(
  app: AppContext,
  auth: AuthContext,
  id: string,
): Promise<WebhookDeliveryDto> {
  const endpoint = await endpointOf(app, auth, id);
  const now = app.clock.now();
  const deliveryId = randomUUID();
  const envelope: WebhookEnvelope<{ message: string }> = {
    id: `test_${deliveryId}`,
    type: WEBHOOK_TEST_EVENT,
    createdAt: now.toISOString(),
    organisationId: auth.organisationId,
    data: { message: 'test' },
  };
  const row = await Q.insertManualDelivery(app.db, {
    id: deliveryId,
    endpointId: endpoint.id,
    orgId: auth.organisationId,
    eventType: WEBHOOK_TEST_EVENT,
    body: JSON.stringify(envelope),
    now,
  });
  return presentDelivery(
    await attempt(app, { ...row, url: endpoint.url, secret_sealed: endpoint.secret_sealed }),
  );
}

/**
 * Sends one delivery again now, with the same body and event id (receivers dedupe by it), and answers it. A
 * delivery still within its day keeps its retries after a failure; an older one is failed again.
 */
export async function redeliver(
  app: AppContext,
  auth: AuthContext,
  id: string,
  deliveryId: string,
): Promise<WebhookDeliveryDto> {
  const endpoint = await endpointOf(app, auth, id);
  const now = app.clock.now();
  const leaseUntil = new Date(now.getTime() + 60_000);
  const row = await app.db.tx(async (q) => {
    const found = await Q.findDelivery(q, endpoint.id, deliveryId);
    if (!found) throw new AppError('notFoundException');
    // A sender in the middle of sending it: its attempt stands, this one is not made twice at once.
    if (!(await Q.claimDelivery(q, found.id, now, leaseUntil))) return undefined;
    await Q.rearmDelivery(q, found.id, now);
    return Q.findDelivery(q, endpoint.id, deliveryId);
  });
  if (!row) return presentDelivery((await Q.findDelivery(app.db, endpoint.id, deliveryId)) as Q.DeliveryRow);
  return presentDelivery(
    await attempt(app, { ...row, url: endpoint.url, secret_sealed: endpoint.secret_sealed }),
  );
}

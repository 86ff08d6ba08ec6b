import {
  billingDocumentDto,
  changePlanSchema,
  demoPaymentDto,
  FIELD_MESSAGES,
  financeDto,
  idParams,
  page,
  paymentDto,
  planBodySchema,
  planDto,
  planUpdateSchema,
  topUpDto,
  topUpSchema,
} from '@smartconnect/contracts';
import { z } from 'zod';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import * as F from './finance.ts';
import * as P from './plans.ts';

const tags = ['billing'];
const finance = { right: 'AUTHORITY_FINANCE' } as const;
const staff = { right: 'RIGHT_OBSERVER' } as const;

/** A YooKassa notification: only the payment's id is read; its state is fetched back from the API. */
const notification = z.object({
  type: z.string().optional(),
  event: z.string().optional(),
  object: z.object({ id: z.string().min(1).max(100) }),
});

export const billingRoutes: ModuleRoutes = (fastify, app) => {
  // Plans (platform staff)
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/plans',
      access: staff,
      summary: 'Tariffs (platform staff)',
      tags,
      response: page(planDto),
    },
    async () => {
      const items = await P.listPlans(app);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/plans',
      access: staff,
      summary:
        'Create a tariff: monthly price, operator licences, account quota, plan options (platform staff)',
      tags,
      body: planBodySchema,
      response: planDto,
    },
    async ({ body }) => P.createPlan(app, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/plans/:id',
      access: staff,
      summary: 'Change a tariff; its organisations take the new licences and options (platform staff)',
      tags,
      params: idParams,
      body: planUpdateSchema,
      response: planDto,
    },
    async ({ params, body }) => P.updatePlan(app, params.id, body),
  );

  // Finance of the caller's organisation (AUTHORITY_FINANCE)
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/finance',
      access: finance,
      summary: 'Balance, billing mode, paid-until day and tariff of the organisation',
      tags,
      response: financeDto,
    },
    async ({ auth }) => F.financeSummary(app, auth.organisationId),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/finance/plans',
      access: finance,
      summary: 'Tariffs the organisation may change to',
      tags,
      response: page(planDto),
    },
    async () => {
      const items = await P.listPlans(app);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: '/api/finance/plan',
      access: finance,
      summary:
        "Change the organisation's tariff: the balance must cover its price (§8 'not enough balance to change tariff')",
      tags,
      body: changePlanSchema,
      response: financeDto,
    },
    async ({ auth, body }) => F.changeOwnPlan(app, auth.organisationId, body.planId),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/finance/payments',
      access: finance,
      summary: 'Payments: top-ups and daily tariff charges, newest first',
      tags,
      response: page(paymentDto),
    },
    async ({ auth }) => {
      const items = await F.listPayments(app, auth.organisationId);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/finance/documents',
      access: finance,
      summary: 'Billing documents (act, invoice, factura), newest first',
      tags,
      response: page(billingDocumentDto),
    },
    async ({ auth }) => {
      const items = await F.listDocuments(app, auth.organisationId);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/finance/documents/:id/pdf',
      access: finance,
      raw: true,
      summary: 'A billing document as PDF',
      tags,
      params: idParams,
    },
    async ({ auth, params, reply }) => {
      const { doc, pdf } = await F.documentPdf(app, auth.organisationId, params.id);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `inline; filename="${doc.number}.pdf"`)
        .send(pdf);
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/finance/top-up',
      access: finance,
      summary: "Top up the balance (at least 500): answers the payment provider's page to send the payer to",
      tags,
      body: topUpSchema,
      response: topUpDto,
      fieldCodes: { [FIELD_MESSAGES.minTopUp]: 'invalidAmountException' },
    },
    async ({ auth, body }) => F.topUp(app, auth.organisationId, body.amount),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/finance/payments/:id/refresh',
      access: finance,
      summary: 'Ask the payment provider about a pending top-up now (the payer came back)',
      tags,
      params: idParams,
      response: paymentDto,
    },
    async ({ auth, params }) => F.refreshPayment(app, auth.organisationId, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/finance/demo-payments/:id',
      access: finance,
      summary:
        "The built-in demo payment page's payment (PAYMENT_PROVIDER=demo; unset without a YooKassa shop, the seeded Demo organisation's only); 404 under another provider",
      tags,
      params: idParams,
      response: demoPaymentDto,
    },
    async ({ auth, params }) => F.demoPayment(app, auth.organisationId, params.id),
  );
  for (const [action, outcome] of [
    ['pay', 'succeeded'],
    ['cancel', 'canceled'],
  ] as const)
    defineRoute(
      fastify,
      app,
      {
        method: 'POST',
        url: `/api/finance/demo-payments/:id/${action}`,
        access: finance,
        summary: `The demo payment page: the payer ${action === 'pay' ? 'pays' : 'cancels'}; the top-up settles as on a provider's notification (once; no money moves)`,
        tags,
        params: idParams,
        response: demoPaymentDto,
      },
      async ({ auth, params }) => F.answerDemo(app, auth.organisationId, params.id, outcome),
    );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/finance/yookassa/notifications',
      access: 'custom',
      summary:
        "The payment provider's notification: trusted only after fetching the payment back from its API; credits a top-up once",
      tags,
      body: notification,
      response: z.object({ received: z.boolean() }),
    },
    async ({ body }) => {
      await F.settleFromProvider(app, body.object.id);
      return { received: true };
    },
  );
};

import {
  idParams,
  pushKeyDto,
  pushSettingsSchema,
  pushStateDto,
  pushSubscribeSchema,
  pushSubscriptionDto,
  pushTestDto,
} from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { publicKey, pushState, saveSettings, sendTest, subscribe, unsubscribe } from './service.ts';

const tags = ['push'];

/** Web push for operators (issue 34): every route is the signed-in user's own (their browsers, their choices). */
export const pushRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/push/key',
      access: 'user',
      response: pushKeyDto,
      summary: "The server's VAPID public key, for pushManager.subscribe's applicationServerKey",
      tags,
    },
    async () => publicKey(app),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/push/settings',
      access: 'user',
      response: pushStateDto,
      summary: 'What the user wants pushed (new chats, new messages) and their subscribed browsers',
      tags,
    },
    async ({ auth }) => pushState(app, auth),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: '/api/push/settings',
      access: 'user',
      body: pushSettingsSchema,
      response: pushStateDto,
      summary: 'Choose what is pushed: new chats for the user, new client messages in their chats',
      tags,
    },
    async ({ auth, body }) => saveSettings(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/push/subscriptions',
      access: 'user',
      body: pushSubscribeSchema,
      response: pushSubscriptionDto,
      summary:
        "Subscribe this browser (its PushSubscription's endpoint and keys) to the user's notifications",
      tags,
    },
    async ({ auth, body, req }) => subscribe(app, auth, body, req.headers['user-agent']),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/push/subscriptions/:id',
      access: 'user',
      params: idParams,
      response: pushSubscriptionDto,
      summary: "Unsubscribe one of the user's browsers",
      tags,
    },
    async ({ auth, params }) => unsubscribe(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/push/test',
      access: 'user',
      response: pushTestDto,
      summary:
        "Send a test notification to the user's browsers now (push subscription missing / push send failure)",
      tags,
    },
    async ({ auth }) => sendTest(app, auth),
  );
};

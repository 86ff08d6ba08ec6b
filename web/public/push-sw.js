/*
 * Web push for operators (issue 34), imported by the generated service worker (vite.config.ts, workbox
 * importScripts). The server's payload is JSON: { title, body, url, tag } (contracts PushPayload).
 * - 'push': shows the notification (one per chat: the tag folds a chat's notifications together).
 * - 'notificationclick': focuses an open tab of the app and takes it to the chat, or opens the chat in a new one.
 */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'SmartConnect';
  const url = typeof data.url === 'string' && data.url ? data.url : '/admin/chats';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      renotify: typeof data.tag === 'string',
      icon: '/favicon.svg',
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Only a path of this app is opened: never another origin.
  const target = new URL(event.notification.data?.url || '/admin/chats', self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const tab = tabs.find((c) => new URL(c.url).origin === self.location.origin);
      if (tab) {
        // navigate() works for a tab this worker controls; otherwise a new tab opens the chat.
        const moved = await tab.navigate(target.href).catch(() => null);
        if (moved) return void (await moved.focus());
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});

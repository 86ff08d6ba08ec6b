/**
 * A customer's chat in a terminal: connects to a channel, sends one message and prints the operators' answers as
 * they come, until the first one (or 60 s). Run it against your server:
 *
 *   SMARTCONNECT_URL=http://localhost:3000 SMARTCONNECT_CHANNEL=<channel id> node --import tsx sdk/examples/node-chat.ts
 *
 * Set SMARTCONNECT_TOKEN to the token it printed last time to come back to the same conversation.
 */
import { SmartConnectChat } from '@smartconnect/sdk';
import { WebSocket } from 'ws';

const chat = await SmartConnectChat.connect({
  baseUrl: process.env.SMARTCONNECT_URL ?? 'http://localhost:3000',
  channelId: process.env.SMARTCONNECT_CHANNEL ?? '',
  token: process.env.SMARTCONNECT_TOKEN,
  // Node 22 and React Native have a global WebSocket; Node 20 takes the ws package's.
  WebSocket: globalThis.WebSocket ?? (WebSocket as unknown as typeof globalThis.WebSocket),
});
console.log(`token: ${chat.token}`);

const answered = new Promise<void>((resolve) => {
  chat.on('message', (m) => {
    if (m.direction !== 'out') return;
    console.log(`${m.author?.name ?? 'operator'}: ${m.text}`);
    resolve();
  });
});
chat.on('typing', (name) => console.log(`${name ?? 'operator'} is typing…`));

const sent = await chat.send(process.argv[2] ?? 'Hello from the app');
console.log(`sent: ${sent.text}`);
let timer: ReturnType<typeof setTimeout> | undefined;
await Promise.race([answered, new Promise((r) => (timer = setTimeout(r, 60_000)))]);
clearTimeout(timer);
await chat.markRead();
chat.close();

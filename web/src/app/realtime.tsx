import type { ChatDto, ChatTakenAwayPayload, CurrentUserDto, PresenceDto } from '@smartconnect/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { channelKeys } from '../features/channels/keys.ts';
import { applyChatEvent, resyncChats } from '../features/chats/cache.ts';
import { chatKeys } from '../features/chats/keys.ts';
import { chatTakenAway } from '../features/chats/taken-away.tsx';
import { get } from '../shared/api/client.ts';
import { isConnectionLost, onConnectionChange, probeConnection } from '../shared/api/connection.ts';
import { i18n } from '../shared/i18n/index.ts';
import { RealtimeClient, setActiveRealtime } from '../shared/realtime/client.ts';
import { ME_KEY, useCurrentUser } from '../shared/session.tsx';
import { getToken, leaveToLogin } from '../shared/storage.ts';
import { attention, playChime, readAttentionPrefs } from './attention.ts';
import { chatPath, showAttentionToast, showDesktopNotification } from './attention-toast.tsx';
import { newMessageAlert } from './new-message-alert.ts';

/**
 * Opens the tab's one realtime socket while the admin area is shown and feeds its events to the cache;
 * a client message arriving while the tab is hidden makes the title blink 'New message!'. A new chat or a client
 * message outside the open chat shows a toast, and plays a chime and shows a desktop notification when the operator
 * asked for them (attention.ts). After a lost connection the chat lists and open chats are read again.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const me = useCurrentUser();
  const userId = me.id;
  const seesAll = me.rights.includes('AUTHORITY_ALL_CHATS');
  // The declarative router gives a new navigate function on every location change: read it through a ref, so that
  // moving between screens never restarts the socket (one socket per tab).
  const navigateNow = useNavigate();
  const navigateRef = useRef(navigateNow);
  navigateRef.current = navigateNow;
  const location = useLocation();
  // Read at each event: the chat on the screen now.
  const where = useRef(location);
  where.current = location;
  useEffect(() => {
    const navigate = (to: string) => navigateRef.current(to);
    const alert = newMessageAlert({ title: () => i18n.t('notices.newMessage') });
    const notice = attention(
      {
        userId,
        openChatId: () =>
          where.current.pathname === '/admin/chats'
            ? new URLSearchParams(where.current.search).get('chat')
            : null,
        hidden: () => document.hidden,
        chatOf: (chatId) => client.getQueryData<ChatDto>(chatKeys.chat(chatId)),
        seesAll,
      },
      {
        prefs: readAttentionPrefs,
        toast: (a) => showAttentionToast(a, () => navigate(chatPath(client, a))),
        sound: playChime,
        desktop: (a) => showDesktopNotification(a, () => navigate(chatPath(client, a))),
      },
    );
    const rt = new RealtimeClient({
      token: getToken,
      origin: `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}`,
      onEvent: (event) => {
        alert.onEvent(event);
        notice.onEvent(event);
        if (event.type === 'chat.takenAway') chatTakenAway(event.payload as ChatTakenAwayPayload);
        if (applyChatEvent(client, event)) return;
        // A channel's problem opened or ended: the administrators' banner reads the list again.
        if (event.type === 'channel.problems') {
          void client.invalidateQueries({ queryKey: channelKeys.problems });
          return;
        }
        // Own teams or rights changed: what the screens show (menus, chat lists) is refetched.
        if (event.type === 'access.changed') {
          resyncChats(client);
          void client.invalidateQueries({ queryKey: ME_KEY });
          return;
        }
        if (event.type === 'presence.changed') {
          const p = event.payload as PresenceDto;
          if (p.userId === userId)
            client.setQueryData<CurrentUserDto>(ME_KEY, (u) => (u ? { ...u, presence: p.status } : u));
        }
      },
      onResync: () => {
        resyncChats(client);
        void client.invalidateQueries({ queryKey: channelKeys.problems });
        void client.invalidateQueries({ queryKey: ME_KEY });
      },
      // The socket is back while the notice still shows: confirm over HTTP so the notice goes away.
      onConnected: () => {
        if (isConnectionLost()) void probeConnection();
      },
      onUnauthorized: leaveToLogin,
      probe: () => get('/api/auth/user'),
    });
    setActiveRealtime(rt);
    // The first socket resumes from where the session's answer was read: events between the page's first reads and
    // the socket's hello are replayed instead of lost (a problem opened meanwhile still shows its banner).
    rt.lastEventId = client.getQueryData<CurrentUserDto>(ME_KEY)?.eventCursor ?? null;
    rt.start();
    // Back after a lost connection: lists and open chats catch up (what failed to load meanwhile loads now).
    let wasLost = false;
    const offConnection = onConnectionChange((lost) => {
      if (wasLost && !lost) resyncChats(client);
      wasLost = lost;
    });
    return () => {
      offConnection();
      rt.stop();
      setActiveRealtime(null);
      alert.dispose();
    };
  }, [client, userId, seesAll]);
  return <>{children}</>;
}

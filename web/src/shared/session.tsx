import type { CurrentUserDto, PlanOption, Right } from '@smartconnect/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { post } from './api/client.ts';
import { fetchCurrentUser } from './api/current-user.ts';
import { setLanguage, storedLanguage } from './i18n/index.ts';
import { closeRealtime } from './realtime/client.ts';
import { clearToken, getToken, LANG_KEY, leaveToLogin } from './storage.ts';
import { FullLoader } from './ui/full-loader.tsx';

export const ME_KEY = ['auth', 'user'] as const;

const SessionContext = createContext<CurrentUserDto | null>(null);

/** §2.6: the admin area needs a token and loads the profile first; on failure the token goes and login shows. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const token = getToken();
  const navigate = useNavigate();
  const me = useQuery({
    queryKey: ME_KEY,
    queryFn: fetchCurrentUser,
    enabled: !!token,
    retry: false,
    staleTime: 60_000,
    meta: { identity: true, silent: true },
  });
  // With no language chosen on this browser yet, the account's language (§1, DECISIONS "Language") applies.
  useEffect(() => {
    if (me.data && localStorage.getItem(LANG_KEY) === null && me.data.language !== storedLanguage())
      void setLanguage(me.data.language);
  }, [me.data]);
  useEffect(() => {
    if (me.isError) {
      clearToken();
      navigate('/', { replace: true });
    }
  }, [me.isError, navigate]);
  if (!token) return <Navigate to="/" replace />;
  if (!me.data) return <FullLoader />;
  return <SessionContext.Provider value={me.data}>{children}</SessionContext.Provider>;
}

export function useCurrentUser(): CurrentUserDto {
  const user = useContext(SessionContext);
  if (!user) throw new Error('useCurrentUser outside SessionProvider');
  return user;
}

export function useAccess() {
  const user = useCurrentUser();
  return {
    can: (right: Right) => user.rights.includes(right),
    has: (option: PlanOption) => user.options.includes(option),
  };
}

/** Logs out on the server (best effort), forgets the token and reloads the login page. */
export function useLogout() {
  const client = useQueryClient();
  return async () => {
    const token = getToken();
    // The socket first: the server closes it on this logout, and that close would navigate as well.
    closeRealtime();
    try {
      if (token) await post('/api/auth/acc/logout', { token });
    } catch {
      // The token is dropped locally either way.
    }
    client.clear();
    leaveToLogin();
  };
}

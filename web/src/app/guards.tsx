import type { PlanOption, Right } from '@smartconnect/contracts';
import { Navigate, Outlet } from 'react-router';
import { optionsPath } from '../shared/query.ts';
import { useAccess } from '../shared/session.tsx';

/** §6 route guard: a missing right goes to /no-rights, a missing plan option to /admin/options. */
export function Guard({ right, option }: { right?: Right; option?: PlanOption }) {
  const { can, has } = useAccess();
  if (right && !can(right)) return <Navigate to="/no-rights" replace />;
  if (option && !has(option)) return <Navigate to={optionsPath(option)} replace />;
  return <Outlet />;
}

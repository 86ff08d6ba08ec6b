import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { authRoutes } from './auth/routes.ts';
import { fileRoutes } from './files/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { roleRoutes } from './roles/routes.ts';
import { teamRoutes } from './teams/routes.ts';
import { userRoutes } from './users/routes.ts';

export type ModuleRoutes = (fastify: FastifyInstance, app: AppContext) => void | Promise<void>;

/** Every module's routes; a new domain adds one line here. */
export const modules: ModuleRoutes[] = [
  healthRoutes,
  authRoutes,
  userRoutes,
  teamRoutes,
  roleRoutes,
  fileRoutes,
];

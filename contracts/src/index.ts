import './zod-config.ts';

export * from './errors.ts';
export * from './limits.ts';
export * from './messages.ts';
export * from './options.ts';
export * from './realtime.ts';
export * from './rights.ts';
export * from './schemas/auth.ts';
export * from './schemas/channels.ts';
export * from './schemas/chats.ts';
export * from './schemas/clients.ts';
export * from './schemas/common.ts';
export * from './schemas/organisations.ts';
export * from './schemas/presence.ts';
export * from './schemas/responses.ts';
export * from './schemas/roles.ts';
export * from './schemas/teams.ts';
export * from './schemas/users.ts';

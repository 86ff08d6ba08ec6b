import {
  blacklistSchema,
  clientCommentSchema,
  clientIdParams,
  clientProfileDto,
  clientProfileUpdateSchema,
  clientStatusDto,
  clientStatusSchema,
  companyDto,
  companyQuerySchema,
  companySchema,
  idEntity,
  idParams,
  mergePreviewDto,
  mergeSchema,
  mergeSuggestionDto,
} from '@smartconnect/contracts';
import { z } from 'zod';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { blockClient, unblockClient } from './blacklist.ts';
import * as C from './catalog.ts';
import { mergeClients, mergeSuggestions, previewMerge } from './merge.ts';
import { addComment, getProfile, updateProfile } from './service.ts';

const tags = ['clients'];
const items = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });

export const clientRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/clients/:id',
      scope: 'clients:read',
      access: 'user',
      response: clientProfileDto,
      summary:
        'A client profile: name, contacts, phones and e-mails, tags, fields, status, companies, manager, spam, blacklist, comments (OPTION_COMMENT), history',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => getProfile(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/clients/:id',
      scope: 'clients:write',
      access: { right: 'AUTHORITY_PROFILE_UPDATE' },
      response: clientProfileDto,
      summary:
        "Edit a client profile: name (≤32) and managerId (the transfer target 'personal_manager') on every plan; with OPTION_PROFILE tags, fields, statusId (OPTION_PROFILE_STATUS), companyIds, spam, sessionStatus, contacts (409 contactAlreadyExistsException when another client owns one)",
      tags,
      params: idParams,
      body: clientProfileUpdateSchema,
    },
    async ({ auth, params, body }) => updateProfile(app, auth, params.id, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/clients/:id/comments',
      scope: 'clients:write',
      access: { right: 'AUTHORITY_PROFILE_UPDATE', option: 'OPTION_COMMENT' },
      response: clientProfileDto,
      summary: 'Comment on a client (author: the caller); answers the profile',
      tags,
      params: idParams,
      body: clientCommentSchema,
    },
    async ({ auth, params, body }) => addComment(app, auth, params.id, body.text),
  );
  // customer statuses (§3, Preferences -> statuses)
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/client-statuses',
      scope: 'clients:read',
      access: { option: 'OPTION_PROFILE_STATUS' },
      response: items(clientStatusDto),
      summary: 'Customer statuses of the organisation, by name',
      tags,
    },
    async ({ auth }) => ({ items: await C.listStatuses(app, auth) }),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/client-statuses',
      access: { right: 'AUTHORITY_PROFILE_STATUS', option: 'OPTION_PROFILE_STATUS' },
      response: clientStatusDto,
      summary: 'Create a customer status: name and a colour of the 13-colour palette',
      tags,
      body: clientStatusSchema,
    },
    async ({ auth, body }) => C.createStatus(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/client-statuses/:id',
      access: { right: 'AUTHORITY_PROFILE_STATUS', option: 'OPTION_PROFILE_STATUS' },
      response: clientStatusDto,
      summary: 'Rename or recolour a customer status',
      tags,
      params: idParams,
      body: clientStatusSchema,
    },
    async ({ auth, params, body }) => C.updateStatus(app, auth, params.id, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/client-statuses/:id',
      access: { right: 'AUTHORITY_PROFILE_STATUS', option: 'OPTION_PROFILE_STATUS' },
      response: idEntity,
      summary: 'Delete a customer status (409 profileStatusInUseException while any client has it)',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => C.deleteStatus(app, auth, params.id),
  );
  // outer companies of clients
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/companies',
      scope: 'clients:read',
      access: { option: 'OPTION_PROFILE' },
      response: items(companyDto),
      summary: "Clients' outer companies, by name (`search`: a name's beginning)",
      tags,
      query: companyQuerySchema,
    },
    async ({ auth, query }) => ({ items: await C.listCompanies(app, auth, query.search) }),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/companies',
      scope: 'clients:write',
      access: { right: 'AUTHORITY_PROFILE_UPDATE', option: 'OPTION_PROFILE' },
      response: companyDto,
      summary: 'Create an outer company (409 companyAlreadyExistsException for a name taken)',
      tags,
      body: companySchema,
    },
    async ({ auth, body }) => C.createCompany(app, auth, body.name),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/companies/:id',
      scope: 'clients:write',
      access: { right: 'AUTHORITY_PROFILE_UPDATE', option: 'OPTION_PROFILE' },
      response: companyDto,
      summary: 'Rename an outer company',
      tags,
      params: idParams,
      body: companySchema,
    },
    async ({ auth, params, body }) => C.renameCompany(app, auth, params.id, body.name),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/companies/:id',
      access: { right: 'AUTHORITY_PROFILE_UPDATE', option: 'OPTION_PROFILE' },
      response: idEntity,
      summary: 'Delete an outer company (its clients lose it)',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => C.deleteCompany(app, auth, params.id),
  );
  // blacklist (Preferences -> black-list; the pipeline's blacklist stage)
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/blacklist',
      access: { right: 'AUTHORITY_PROFILE_UPDATE' },
      response: clientProfileDto,
      summary:
        'Blacklist a client: their open dialogs close; what they send is stored on their profile but opens no dialog and reaches no operator',
      tags,
      body: blacklistSchema,
    },
    async ({ auth, body }) => blockClient(app, auth, body.clientId),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/blacklist/:clientId',
      access: { right: 'AUTHORITY_PROFILE_UPDATE' },
      response: clientProfileDto,
      summary: 'Take a client off the blacklist',
      tags,
      params: clientIdParams,
    },
    async ({ auth, params }) => unblockClient(app, auth, params.clientId),
  );
  // contact merge (§4: irreversible)
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/clients/merge/suggestions',
      access: { right: 'AUTHORITY_PROFILE_UPDATE' },
      response: items(mergeSuggestionDto),
      summary: 'Clients that look like one person: the same phone, e-mail or name',
      tags,
    },
    async ({ auth }) => ({ items: await mergeSuggestions(app, auth) }),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/clients/merge/preview',
      access: { right: 'AUTHORITY_PROFILE_UPDATE' },
      response: mergePreviewDto,
      summary: 'What a merge would move to the kept client (nothing changes)',
      tags,
      body: mergeSchema,
    },
    async ({ auth, body }) => previewMerge(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/clients/merge',
      scope: 'clients:write',
      access: { right: 'AUTHORITY_PROFILE_UPDATE' },
      response: clientProfileDto,
      summary:
        "Merge clients into targetId in one transaction (irreversible): the sources' contacts, chats, messages, comments, tags and fields move; the sources answer 404 afterwards",
      tags,
      body: mergeSchema,
    },
    async ({ auth, body }) => mergeClients(app, auth, body),
  );
};

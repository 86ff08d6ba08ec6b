import { FIELD_MESSAGES as M, type Right } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { userTeamIds } from '../teams/readers.ts';
import * as Q from './queries.ts';
import { availableTo, buildTree, narrow } from './tree.ts';

/** Who changes categories: a user with their rights, or null for the system (the Demo seed). */
export type Editor = { userId: string; rights: ReadonlySet<Right> } | null;

export async function loadTree(q: Queryable, orgId: string) {
  const [rows, live] = await Promise.all([Q.listCategories(q, orgId), Q.liveTeamIds(q, orgId)]);
  return { ...buildTree(rows, new Set(live)), live };
}

async function nodeOf(q: Queryable, orgId: string, id: string) {
  const tree = await loadTree(q, orgId);
  const node = tree.byId.get(id);
  if (!node) throw new AppError('categoryNotFoundException');
  return { tree, node };
}

/** One node with its themes and subthemes (404 for another organisation's). */
export async function getCategory(app: AppContext, orgId: string, id: string) {
  return (await nodeOf(app.db, orgId, id)).node;
}

/**
 * 'Category modify denied' (§6, §8): nobody while platform staff locked the organisation's categories
 * (`modifyDenied: ["CATEGORY"]`, as for templates); otherwise a user without AUTHORITY_TEAMS_UPDATE changes only the
 * categories used by their own teams alone; one available to every team, or to a team they are not in, is refused.
 */
async function assertMayModify(q: Queryable, orgId: string, editor: Editor, available: string[] | null) {
  if (await Q.categoriesLocked(q, orgId)) throw new AppError('categoryModifyDeniedException');
  if (!editor || editor.rights.has('AUTHORITY_TEAMS_UPDATE')) return;
  const mine = await userTeamIds(q, editor.userId);
  if (available === null || available.some((t) => !mine.includes(t)))
    throw new AppError('categoryModifyDeniedException');
}

/** Teams of the organisation that exist, and within what the parent allows. */
function checkTeams(teamIds: string[], live: string[], parentAvailable: string[] | null): string[] {
  const unique = [...new Set(teamIds)];
  if (unique.some((t) => !live.includes(t) || (parentAvailable !== null && !parentAvailable.includes(t))))
    throw new AppError('validationException', { teamIds: M.teamIncorrect });
  return unique;
}

const duplicate = (level: number) =>
  new AppError(level === 1 ? 'categoryNameAlreadyExistsException' : 'subcategoryAlreadyExistsException');

/** A unique-index race between two writers of the same name is the same answer as the check before it. */
async function uniquely<T>(level: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw duplicate(level);
    throw err;
  }
}

/**
 * Creates a category (no parent), a theme (parent: a category) or a subtheme (parent: a theme), its name unique
 * among its siblings (case-insensitive), its teams within its parent's.
 */
export async function createCategory(
  app: AppContext,
  editor: Editor,
  orgId: string,
  input: { name: string; parentId?: string | null; teamIds?: string[] },
) {
  const id = await app.db.tx(async (q) => {
    const tree = await loadTree(q, orgId);
    const parent = input.parentId ? tree.byId.get(input.parentId) : undefined;
    if (input.parentId && !parent) throw new AppError('categoryNotFoundException');
    if (parent && parent.level >= 3)
      throw new AppError('validationException', { parentId: M.valueIncorrect });
    const level = parent ? ((parent.level + 1) as 2 | 3) : 1;
    const teamIds = checkTeams(input.teamIds ?? [], tree.live, parent?.availableTeamIds ?? null);
    await assertMayModify(q, orgId, editor, narrow(parent?.availableTeamIds ?? null, teamIds));
    if (await Q.nameTaken(q, orgId, parent?.id ?? null, input.name)) throw duplicate(level);
    const row = await uniquely(level, () =>
      Q.insertCategory(q, orgId, { name: input.name, parentId: parent?.id ?? null, level, teamIds }),
    );
    return row.id;
  });
  return getCategory(app, orgId, id);
}

/** Renames a node and/or changes its teams (a node stays under its parent). */
export async function updateCategory(
  app: AppContext,
  editor: Editor,
  orgId: string,
  id: string,
  input: { name?: string; teamIds?: string[] },
) {
  await app.db.tx(async (q) => {
    const { tree, node } = await nodeOf(q, orgId, id);
    await assertMayModify(q, orgId, editor, node.availableTeamIds);
    const parentAvailable = node.parentId ? (tree.byId.get(node.parentId)?.availableTeamIds ?? null) : null;
    let teamIds: string[] | undefined;
    if (input.teamIds) {
      teamIds = checkTeams(input.teamIds, tree.live, parentAvailable);
      await assertMayModify(q, orgId, editor, narrow(parentAvailable, teamIds));
    }
    if (input.name !== undefined && (await Q.nameTaken(q, orgId, node.parentId, input.name, id)))
      throw duplicate(node.level);
    await uniquely(node.level, () => Q.updateCategory(q, orgId, id, { name: input.name, teamIds }));
  });
  return getCategory(app, orgId, id);
}

/** Deletes a node with its themes and subthemes; chats that carried one keep their history and lose the category. */
export async function deleteCategory(app: AppContext, editor: Editor, orgId: string, id: string) {
  await app.db.tx(async (q) => {
    const { node } = await nodeOf(q, orgId, id);
    await assertMayModify(q, orgId, editor, node.availableTeamIds);
    await Q.deleteCategory(q, orgId, id);
  });
}

/**
 * The category a chat of `teamId` may take (any level): its id and path of names. Another organisation's or an
 * unknown id is categoryNotFoundException; one its team may not use is sessionCategoryNotAvailableException.
 */
export async function categoryForTeam(q: Queryable, orgId: string, id: string, teamId: string) {
  const { node } = await nodeOf(q, orgId, id);
  if (!availableTo(node, teamId)) throw new AppError('sessionCategoryNotAvailableException');
  return { id: node.id, path: node.path };
}

/** The path of names of a node, or null when it no longer exists. */
export async function categoryPath(q: Queryable, orgId: string, id: string): Promise<string[] | null> {
  return (await loadTree(q, orgId)).byId.get(id)?.path ?? null;
}

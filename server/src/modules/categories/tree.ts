import type { CategoryDto } from '@smartconnect/contracts';
import type { CategoryRow } from './queries.ts';

/** The organisation's categories as a tree: top categories by name, each with its themes and their subthemes. */
export type CategoryTree = { roots: CategoryDto[]; byId: Map<string, CategoryDto> };

/**
 * The teams a node with `own` teams may be used by, under a parent available to `parent` (null = every team):
 * an empty own list keeps the parent's; otherwise the teams both allow.
 */
export const narrow = (parent: string[] | null, own: string[]): string[] | null =>
  own.length === 0 ? parent : parent === null ? [...own] : own.filter((t) => parent.includes(t));

/**
 * Builds the tree from every row of an organisation (rows sorted by name). A deleted team no longer counts in a
 * node's list (`live`: the teams that exist).
 */
export function buildTree(rows: CategoryRow[], live: ReadonlySet<string>): CategoryTree {
  const byId = new Map<string, CategoryDto>();
  for (const r of rows)
    byId.set(r.id, {
      id: r.id,
      name: r.name,
      parentId: r.parent_id,
      level: r.level,
      path: [],
      teamIds: r.team_ids.filter((t) => live.has(t)),
      availableTeamIds: null,
      children: [],
      createdAt: new Date(r.created_at).toISOString(),
      updatedAt: new Date(r.updated_at).toISOString(),
    });
  const roots: CategoryDto[] = [];
  for (const r of rows) {
    const node = byId.get(r.id) as CategoryDto;
    const parent = r.parent_id ? byId.get(r.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else if (!r.parent_id) roots.push(node);
  }
  const walk = (nodes: CategoryDto[], path: string[], available: string[] | null) => {
    for (const n of nodes) {
      n.path = [...path, n.name];
      n.availableTeamIds = narrow(available, n.teamIds);
      walk(n.children, n.path, n.availableTeamIds);
    }
  };
  walk(roots, [], null);
  return { roots, byId };
}

export const availableTo = (node: CategoryDto, teamId: string): boolean =>
  node.availableTeamIds === null || node.availableTeamIds.includes(teamId);

/** The nodes a team may use (a node it may not use hides its themes and subthemes too). */
export const pruneFor = (nodes: CategoryDto[], teamId: string): CategoryDto[] =>
  nodes.filter((n) => availableTo(n, teamId)).map((n) => ({ ...n, children: pruneFor(n.children, teamId) }));

/** How many nodes a list holds, its themes and subthemes included. */
export const countNodes = (nodes: CategoryDto[]): number =>
  nodes.reduce((sum, n) => sum + 1 + countNodes(n.children), 0);

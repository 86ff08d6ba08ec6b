/**
 * Plug points: where one module lets others take part in its work without importing them (the conversation
 * module runs the steps others give it when a chat closes, say). A point is declared beside the code that reads it,
 * with its type; other modules give it a value in their `register.ts` only (a test holds every module to that), and
 * modules/setup.ts runs every register.ts at boot. `many` points take any number of values, run in the order given;
 * the others take one, replacing the fallback.
 */
export type PlugPoint<T> = {
  readonly name: string;
  readonly many: boolean;
  readonly fallback: T | undefined;
};

const declared = new Map<string, PlugPoint<unknown>>();
const given = new Map<PlugPoint<unknown>, unknown[]>();

function declare<T>(point: PlugPoint<T>): PlugPoint<T> {
  if (declared.has(point.name)) throw new Error(`plug point ${point.name} is declared twice`);
  declared.set(point.name, point as PlugPoint<unknown>);
  return point;
}

/** A point that takes any number of values (steps). */
export const manyPlugPoint = <T>(name: string): PlugPoint<T> =>
  declare<T>({ name, many: true, fallback: undefined });

/** A point that takes one value; `fallback` until a module gives one. */
export const onePlugPoint = <T>(name: string, fallback: T): PlugPoint<T> =>
  declare({ name, many: false, fallback });

/** Gives the point a value (a `many` point keeps each value once; a one-value point takes the latest). */
export function plug<T>(point: PlugPoint<T>, value: T): void {
  const list = given.get(point as PlugPoint<unknown>) ?? [];
  if (!point.many) list.length = 0;
  if (!list.includes(value)) list.push(value);
  given.set(point as PlugPoint<unknown>, list);
}

/** The values of a `many` point, in the order given. */
export const plugsOf = <T>(point: PlugPoint<T>): readonly T[] =>
  (given.get(point as PlugPoint<unknown>) ?? []) as T[];

/** The value of a one-value point, or its fallback. */
export const pluggedOf = <T>(point: PlugPoint<T>): T =>
  ((given.get(point as PlugPoint<unknown>) ?? [])[0] as T | undefined) ?? (point.fallback as T);

/** Every declared point, with how many values it has (tests, diagnostics). */
export const plugPoints = () =>
  [...declared.values()].map((p) => ({ name: p.name, many: p.many, given: given.get(p)?.length ?? 0 }));

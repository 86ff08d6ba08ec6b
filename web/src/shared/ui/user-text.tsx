import { balanceIsolates } from '../bidi.ts';

/**
 * Text a user or a customer typed (a name, a message, a category), isolated from the line around it:
 * `<bdi>` takes its direction from its own first strong letter (`dir=auto`) and is `unicode-bidi: isolate`,
 * so a right-to-left override in a name cannot reverse the label after it. Use it wherever user text
 * is rendered; in plain strings (i18n sentences, aria-labels) use `isolate()` from `shared/bidi.ts`.
 */
export function UserText({ children }: { children: string | null | undefined }) {
  if (!children) return null;
  return <bdi>{balanceIsolates(children)}</bdi>;
}

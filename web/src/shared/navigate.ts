type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);

/** The router registers itself so HTTP handling can move to /no-rights and /not-found. */
export function setNavigator(fn: Navigate): void {
  navigate = fn;
}

/** Moves to a page of the app (the router's navigation once it has registered). */
export function navigateTo(to: string): void {
  navigate(to);
}

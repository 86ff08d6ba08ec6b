/** Query keys of the registration. */
export const signupKeys = {
  state: (token: string) => ['signup', token] as const,
};

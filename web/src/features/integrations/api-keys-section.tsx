/** The organisation's API keys (issue 34). */
export function ApiKeysSection() {
  return null;
}

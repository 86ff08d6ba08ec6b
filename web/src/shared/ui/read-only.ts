/**
 * Props of a field shown but not editable (a built-in role, a team without the right, an account's
 * organisation): readable dark text on a filled background, unlike a disabled field's faded grey.
 */
export function readOnlyProps(readOnly: boolean): { readOnly?: true; variant?: 'filled' } {
  return readOnly ? { readOnly: true, variant: 'filled' } : {};
}

/** A read-only checkbox stays legible: disabled for input, its label in the normal text colour. */
export const legibleWhenDisabled = {
  label: { color: 'var(--mantine-color-text)', cursor: 'default' },
  description: { color: 'var(--mantine-color-dimmed)' },
};

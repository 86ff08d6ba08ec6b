/**
 * Contacts and clients, written by their owner (clients) for the inbound path: a contact's opt-out and new address,
 * and the parts of the ingest's one statement that make new contacts and clients and rename known ones.
 */
export {
  markOptedOut,
  moveContactAddress,
  newClientsCte,
  newContactsCte,
  renamedClientsCte,
  renamedContactsCte,
} from './queries.ts';

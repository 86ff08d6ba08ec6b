/**
 * Creating an organisation (with its three built-in roles and default routing rule) for the commands of other
 * modules: self-service sign-up. Its queries stay this module's own.
 */
export { insertOrganisation as provisionOrganisation } from './queries.ts';

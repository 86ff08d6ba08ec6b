/**
 * The built-in roles, written by their owner (roles) when the organisations module creates an organisation; a file
 * of its own because modules reach each other through commands, never through each other's queries files.
 */
export { insertBuiltInRoles } from './queries.ts';

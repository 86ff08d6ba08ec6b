/**
 * An organisation's tariff and money (plan, options, licences, balance, paid-until day, suspension), written by the
 * owner of organisations for the billing module, which decides when.
 */
export { addBalance, applyPlan, reapplyPlan, setPaidUntil, setSuspended } from './queries.ts';

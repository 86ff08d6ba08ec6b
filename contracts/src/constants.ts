/**
 * The contracts without their schemas: error codes, limits, the §5/§8 message catalogue, plan options, rights,
 * realtime types and text rules. Nothing here loads the validation library, so a page that needs only these (the
 * web app's first bundle: login, shell, realtime) does not download it: `@smartconnect/contracts/constants`.
 */
export * from './errors.ts';
export * from './landing-rules.ts';
export * from './limits.ts';
export * from './messages.ts';
export * from './options.ts';
export * from './phone.ts';
export * from './realtime.ts';
export * from './rights.ts';
export * from './telemetry-constants.ts';
export * from './text.ts';

import { config } from 'zod/v4/core';

/**
 * The app runs under a Content-Security-Policy without 'unsafe-eval' (issue point 4). Zod compiles fast
 * object parsers with `new Function` after probing whether it may, and even the caught probe is reported
 * as a CSP violation; jitless parsing needs neither. Imported by shared/form.ts and the admin layout (the
 * modules that bring zod to a page), before any parse; the entry itself does not load zod.
 */
config({ jitless: true });

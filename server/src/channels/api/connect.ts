import { randomToken } from '../../lib/crypto.ts';

/** An API channel needs only our own webhook signing secret. */
export const connectApi = () => ({ secrets: { webhookSecret: randomToken() } });

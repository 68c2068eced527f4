import { parseEnv } from './env-schema';

export type { Env } from './env-schema';

/** Checked when the build starts (vite.config.ts) and again when the API layer loads. */
export const env = parseEnv(import.meta.env);

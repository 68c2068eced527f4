import { z } from 'zod';

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.object({ reachable: z.boolean(), latencyMs: z.number().nullable() }),
  migrations: z.object({ applied: z.number().int(), expected: z.number().int(), upToDate: z.boolean() }),
  worker: z.object({
    lastBeatAt: z.string().nullable(),
    ageSeconds: z.number().nullable(),
    workers: z.number().int(),
  }),
  role: z.enum(['api', 'worker', 'all']),
  uptimeSeconds: z.number(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

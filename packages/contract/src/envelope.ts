import { z } from 'zod';

/** The values a message was built from, by name (`API_MESSAGES`): enough to say it in any language. */
export const apiParamsSchema = z
  .record(z.string(), z.union([z.string(), z.number()]))
  .meta({ description: 'Values the message was built from; with the code, enough to translate it' });

/** Every error answer: `{ success: false, error: CODE, message, params? }` (DESIGN §2). */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  error: z
    .string()
    .meta({ description: 'Machine-readable error code (API_MESSAGES), e.g. VALIDATION_ERROR' }),
  message: z.string().meta({ description: 'Human-readable explanation, in English' }),
  params: apiParamsSchema.optional(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** `{ success: true, results }` */
export function okSchema<T extends z.ZodType>(results: T) {
  return z.object({ success: z.literal(true), results });
}

/** Paged lists: `results` is an array plus `total`, `page`, `pageSize`. */
export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    success: z.literal(true),
    results: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

export const errorResponses = {
  400: errorEnvelopeSchema,
  401: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  422: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
} as const;

/** Query-string paging with the spec's defaults; `pageSize` capped to keep answers small. */
export function pagingQuery(defaultPageSize: number, maxPageSize = 200) {
  return {
    page: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(defaultPageSize),
  };
}

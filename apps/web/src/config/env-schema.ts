import * as z from 'zod/mini';

// '' means "same origin" (DESIGN §2): the server serves both the app and the API.
// zod/mini keeps the validator small in the browser bundle.
const baseUrl = z.pipe(
  z._default(z.string().check(z.trim()), ''),
  z.transform((value: string, context) => {
    if (value === '' || value.startsWith('/') || /^https?:\/\//.test(value)) return value.replace(/\/+$/, '');
    context.issues.push({
      code: 'custom',
      input: value,
      message: "must be '' (same origin), a path starting with '/' or an http(s) URL",
    });
    return value;
  }),
);

export const envSchema = z.object({
  VITE_API_URL: baseUrl,
  VITE_TRADE_API_URL: baseUrl,
});

export type Env = z.infer<typeof envSchema>;

/** Parses the VITE_* variables; throws with every invalid variable listed. */
export function parseEnv(source: Record<string, unknown>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `- ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  }
  return result.data;
}

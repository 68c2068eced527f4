import { apiError } from '@kairos/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationError } from '../lib/errors';

/** True when a string anywhere in a parsed input (keys included) holds U+0000. */
export function holdsNul(input: unknown): boolean {
  const pending: unknown[] = [input];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, nested] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        pending.push(nested);
      }
    }
  }
  return false;
}

/**
 * PostgreSQL text and jsonb cannot store U+0000: an input holding one is refused with a 400 before the
 * handler runs, instead of failing in the driver as a 500. Runs on the validated input, which is what
 * handlers receive.
 */
async function textInputPlugin(app: FastifyInstance) {
  app.addHook('preHandler', async (request) => {
    if (holdsNul(request.params) || holdsNul(request.query) || holdsNul(request.body)) {
      throw new ValidationError(...apiError('VALIDATION_ERROR', { variant: 'nulCharacter' }));
    }
  });
}

export default fp(textInputPlugin, { name: 'text-input' });

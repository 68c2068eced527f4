import type { FastifyBaseLogger } from 'fastify';
import type { Sealer } from '../../lib/crypto';
import type { SecretsRepo } from './secrets-repo';

export type SecretsService = ReturnType<typeof createSecretsService>;

/** Sealed values at rest (issue 20): the v1 values of before are sealed again as v2, bound to their place. */
export function createSecretsService(deps: { repo: SecretsRepo; sealer: Sealer; log: FastifyBaseLogger }) {
  return {
    /**
     * Re-seals every v1 value of a bound column as v2 at its place (at start, after the migrations); a value
     * another process changed meanwhile is left to it. Returns how many were re-sealed.
     */
    async resealLegacy(): Promise<number> {
      let resealed = 0;
      for await (const value of deps.repo.legacy()) {
        const sealedAgain = deps.sealer.seal(deps.sealer.open(value.sealed), value.at);
        if (await value.replaceWith(sealedAgain)) resealed += 1;
      }
      if (resealed > 0) deps.log.info({ resealed }, 'sealed values re-sealed as v2 (bound to their place)');
      return resealed;
    },
  };
}

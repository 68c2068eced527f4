/** The values a refusal's message was built from, by name: enough to say it again in another language. */
export type ErrorParams = Readonly<Record<string, string | number>>;

/**
 * Base class for every rule Kairos refuses (core's, the server's, the engine's), so the server maps all of
 * them in one place: `instanceof DomainRuleError` → 422 (unless the error carries another status) with
 * `code`, the English `message` and the `params` it was built from.
 */
export class DomainRuleError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly params?: ErrorParams,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

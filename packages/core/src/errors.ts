/**
 * Base class for every rule core refuses, so the server can map all of them in one place
 * (`instanceof DomainRuleError` → 422 with `code` and the human `message`).
 */
export class DomainRuleError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

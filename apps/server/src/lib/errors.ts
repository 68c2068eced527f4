import type { ApiMessageCode } from '@kairos/contract';
import { DomainRuleError, type ErrorParams } from '@kairos/core';

export { DomainRuleError };

/**
 * Typed refusals thrown by services, each `(code, message, params?)` like every DomainRuleError, built
 * with the contract's `apiError(code, params)` so the English comes from its catalog. They differ only by
 * their HTTP status; one place (plugins/errors.ts) maps them to HTTP.
 */
export class AppError extends DomainRuleError {
  constructor(
    readonly statusCode: number,
    code: ApiMessageCode,
    message: string,
    params?: ErrorParams,
    readonly headers: Record<string, string> = {},
  ) {
    super(code, message, params);
  }
}

export class ValidationError extends AppError {
  constructor(code: ApiMessageCode, message: string, params?: ErrorParams) {
    super(400, code, message, params);
  }
}
export class UnauthorizedError extends AppError {
  constructor(code: ApiMessageCode, message: string, params?: ErrorParams) {
    super(401, code, message, params);
  }
}
export class ForbiddenError extends AppError {
  constructor(code: ApiMessageCode, message: string, params?: ErrorParams) {
    super(403, code, message, params);
  }
}
export class NotFoundError extends AppError {
  constructor(code: ApiMessageCode, message: string, params?: ErrorParams) {
    super(404, code, message, params);
  }
}
export class ConflictError extends AppError {
  constructor(code: ApiMessageCode, message: string, params?: ErrorParams) {
    super(409, code, message, params);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(retryAfterSeconds: number, code: ApiMessageCode, message: string, params?: ErrorParams) {
    super(429, code, message, params, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

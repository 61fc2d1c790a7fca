// Results and errors as values across the API's transports (IPC and the WebSocket): a handler's
// throw becomes an ErrorValue, and the client rebuilds an Error with the same name.
import type { ErrorValue } from './chat.ts';

export type ApiResult<T = unknown> = { ok: true; value: T } | { ok: false; error: ErrorValue };

/** Error names the transports produce themselves (handlers may use any name). */
export const API_ERRORS = {
  unknownMethod: 'UnknownMethodError',
  invalidRequest: 'InvalidRequestError',
  notFound: 'NotFoundError',
  unauthorized: 'UnauthorizedError',
  tooLarge: 'PayloadTooLargeError',
  disconnected: 'DisconnectedError',
  internal: 'InternalError',
} as const;

/** An Error rebuilt on the client side from an ErrorValue (keeps the name). */
export class ApiError extends Error {
  constructor(value: ErrorValue) {
    super(value.message);
    this.name = value.name;
  }
}

export function toErrorValue(error: unknown): ErrorValue {
  if (error instanceof Error) return { name: error.name || 'Error', message: error.message };
  if (error && typeof error === 'object' && 'message' in error) {
    const e = error as { name?: unknown; message?: unknown };
    return { name: typeof e.name === 'string' ? e.name : 'Error', message: String(e.message) };
  }
  return { name: 'Error', message: String(error) };
}

/** Creates an Error with a chosen name, for handlers (`throw apiError('NotFoundError', ...)`). */
export function apiError(name: string, message: string): ApiError {
  return new ApiError({ name, message });
}

/**
 * The reason and params of any failure, without the error panel's words: what an element needs to
 * decide a state (offline, refused) before the panel itself has loaded.
 */
import { ApiError, reasonOf, type ErrorParams, type ErrorReason } from '../../api/index.js';

/** Reason and params of anything thrown or reported (ApiError, a job's `error`, a viewer error). */
export function errorFacts(error: unknown): { reason: ErrorReason; params: ErrorParams; message: string } {
  if (error instanceof ApiError) return { reason: error.reason, params: error.params, message: error.message };
  if (error && typeof error === 'object' && 'code' in error) {
    const { code, message } = error as { code: unknown; message?: unknown };
    return { reason: reasonOf(-1, String(code)), params: {}, message: typeof message === 'string' ? message : '' };
  }
  return { reason: 'unknown', params: {}, message: error instanceof Error ? error.message : String(error ?? '') };
}

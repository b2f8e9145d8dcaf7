/** Failed logins of one e-mail address, as stored. */
export type LoginFailures = { failures: number; firstFailedAt: string; lockedUntil: string | null };

/**
 * Online guessing limit (OWASP Authentication Cheat Sheet, "account lockout"): 5 failures within
 * 15 minutes lock the address for 15 minutes. Keyed by e-mail, so spreading guesses over many
 * source addresses does not help; the price is that a stranger can lock a user out for 15 min.
 */
export const LOGIN_THROTTLE = { maxFailures: 5, windowSeconds: 900, lockSeconds: 900 } as const;

/** True while the address is locked at `now`. */
export function isLocked(state: LoginFailures | undefined, now: Date): boolean {
  return state?.lockedUntil != null && state.lockedUntil > now.toISOString();
}

/** The state after one more failure at `now`. */
export function afterFailure(state: LoginFailures | undefined, now: Date): LoginFailures {
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - LOGIN_THROTTLE.windowSeconds * 1000).toISOString();
  const fresh = !state || state.firstFailedAt <= windowStart || (state.lockedUntil !== null && state.lockedUntil <= at);
  const failures = fresh ? 1 : state.failures + 1;
  const firstFailedAt = fresh ? at : state.firstFailedAt;
  if (failures >= LOGIN_THROTTLE.maxFailures) {
    return { failures, firstFailedAt, lockedUntil: new Date(now.getTime() + LOGIN_THROTTLE.lockSeconds * 1000).toISOString() };
  }
  return { failures, firstFailedAt, lockedUntil: null };
}

/**
 * Counts a login attempt before its password is checked, so concurrent guesses cannot all slip
 * past the lock while the slow hash runs: an attempt while locked is refused and not counted;
 * any other counts as a failure until a success clears it.
 */
export function afterAttempt(state: LoginFailures | undefined, now: Date): { allowed: boolean; next: LoginFailures | undefined } {
  if (isLocked(state, now)) return { allowed: false, next: state };
  return { allowed: true, next: afterFailure(state, now) };
}

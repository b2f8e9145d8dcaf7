import type { EsignConfig } from './config.ts';
import type { Store } from './store/index.ts';
import type { PasswordHashCost } from './security/password-hash.ts';

/** What every route module is given by server.ts: no module reaches for globals. */
export type EsignContext = {
  readonly config: EsignConfig;
  readonly store: Store;
  /** The clock; tests inject one to expire codes and tokens without waiting. */
  readonly now: () => Date;
  /** PUBLIC_URL without its scheme: the SDK's oAuthBasePath and the JWT `aud`. */
  readonly authHost: string;
  /** Cookies get `Secure` when the public URL is https. */
  readonly secureCookies: boolean;
  /**
   * The scrypt cost of the passwords and codes this server hashes (sign-up, invitations, access
   * codes, passcodes, the login decoy): production's (security/password-hash.ts) when absent, as
   * everywhere outside tests; tests inject a cheap one (EsignDeps.passwordHashCost).
   */
  readonly passwordHashCost?: PasswordHashCost | undefined;
};

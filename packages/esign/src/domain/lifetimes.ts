/** Token and session lifetimes, in seconds (docs/esign-oauth.md, "POST /oauth/token", for DocuSign's). */
export const LIFETIMES = {
  /** DocuSign: the authorization-code grant's access token lives 8 h. */
  accessToken: 28_800,
  /** DocuSign: the refresh token lives 30 days. */
  refreshToken: 30 * 86_400,
  /** DocuSign: the JWT grant's access token lives 1 h whatever the assertion asks. */
  jwtAccessToken: 3_600,
  /** RFC 6749 §4.1.2 recommends at most 10 minutes; codes are redeemed within seconds. */
  authorizationCode: 120,
  /** A console/login session. */
  session: 12 * 3_600,
} as const;

/** `now + seconds` as the ISO text the store compares. */
export function expiryAfter(now: Date, seconds: number): string {
  return new Date(now.getTime() + seconds * 1000).toISOString();
}

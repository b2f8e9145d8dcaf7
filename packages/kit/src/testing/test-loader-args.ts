/**
 * `node` arguments that load TypeScript the way npm test does (scripts/test-loader.mjs), for the
 * helper processes a test starts when how they load is not what it tests (a gateway behind a
 * health test, the esign CLI seeding a user): ~0.3-0.7 s less CPU a process than
 * `--import tsx`, for the same compiled code. Tests of the bins, `npm start` and the
 * supervisor still start those as they ship.
 */
export const testLoaderArgs: readonly string[] = ['--import', new URL('../../../../scripts/test-loader.mjs', import.meta.url).href];

/**
 * The environment variable through which npm test's loader reaches the pdf threads of the
 * processes a test starts (SIGNET_TS_HOOKS, see scripts/test-loader.mjs), for a test that starts
 * a bin with an environment of its own making: empty when the test itself runs without it.
 */
export function testLoaderEnv(): Record<string, string> {
  const hooks = process.env.SIGNET_TS_HOOKS;
  return hooks ? { SIGNET_TS_HOOKS: hooks } : {};
}

/**
 * `node` arguments that load TypeScript the way npm test does (scripts/test-loader.mjs), for the
 * helper processes a test starts when how they load is not what it tests (a gateway behind a
 * health test, the esign CLI seeding a user): ~0.3-0.7 s less CPU a process than
 * `--import tsx`, for the same compiled code. Tests of the bins, `npm start` and the
 * supervisor still start those as they ship.
 */
export const testLoaderArgs: readonly string[] = ['--import', new URL('../../../../scripts/test-loader.mjs', import.meta.url).href];

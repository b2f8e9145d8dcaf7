// `npm test`'s TypeScript loader (node --import ./scripts/test-loader.mjs), in place of tsx for
// the test files themselves. tsx answers every module's resolve and load on its hooks thread;
// with ~1,000 modules behind an esign test (our ~480 files, kysely's ~290) those round trips
// cost ~0.7 s of CPU per test file, a tenth of the whole suite's. This loader only loads: Node's
// own resolver already finds our `.ts` specifiers, and the code compiled (with tsx's esbuild
// options, from a cache keyed by the source) is the same. Processes the tests start, and
// `npm start`, still use tsx for their own modules.
//
// Worker threads do not inherit a loader (Node 20): the pdf threads register one themselves
// (packages/pdf/src/threads/pdf-thread-boot.mjs), tsx unless SIGNET_TS_HOOKS names these hooks.
// Set here, it reaches this process's threads and, through the environment, those of the
// processes the tests start: a pdf thread then boots in ~1 s of CPU instead of ~2 s with tsx.
import { register } from 'node:module';

const hooks = new URL('./test-loader-hooks.mjs', import.meta.url).href;
process.setSourceMapsEnabled(true);
register(hooks);
process.env.SIGNET_TS_HOOKS = hooks;

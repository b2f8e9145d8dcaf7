// `npm test`'s TypeScript loader (node --import ./scripts/test-loader.mjs), in place of tsx for
// the test files themselves. tsx answers every module's resolve and load on its hooks thread;
// with ~1,000 modules behind an esign test (our ~480 files, kysely's ~290) those round trips
// cost ~0.7 s of CPU per test file, a tenth of the whole suite's. This loader only loads: Node's
// own resolver already finds our `.ts` specifiers, and the code compiled (with tsx's esbuild
// options, from a cache keyed by the source) is the same. Processes the tests start, and
// `npm start`, still use tsx.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./test-loader-hooks.mjs', import.meta.url);

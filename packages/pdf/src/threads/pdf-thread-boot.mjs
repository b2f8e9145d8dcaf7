// Entry of a pdf worker thread. Worker threads do not inherit the parent's `--import tsx`
// loader, so the thread registers one itself before loading the TypeScript handler: tsx, or
// the load hooks SIGNET_TS_HOOKS names (npm test's scripts/test-loader.mjs sets it: the same
// compiled code for about half the thread's start-up CPU).
import { register as registerHooks } from 'node:module';

const hooks = process.env.SIGNET_TS_HOOKS;
if (hooks) registerHooks(hooks);
else (await import('tsx/esm/api')).register();
await import('./pdf-thread.ts');

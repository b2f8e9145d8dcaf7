// Entry of a pdf worker thread. Worker threads do not inherit the parent's `--import tsx`
// loader, so the thread registers tsx itself before loading the TypeScript handler.
import { register } from 'tsx/esm/api';

register();
await import('./pdf-thread.ts');

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** One operation of the official SDK, as its api file calls it: the method's name, HTTP verb and path template. */
export type SdkRoute = { api: string; name: string; method: string; path: string };

const sdkDir = dirname(createRequire(import.meta.url).resolve('docusign-esign'));

/**
 * Every operation of docusign-esign src/api/<api>.js, read from the file itself: each
 * `this.<name> = function(...)` and the `callApi('<path>', '<METHOD>', ...)` in its body. Read
 * from the SDK we test against, so a newer SDK's operations are walked without a list to update.
 */
export function sdkRoutes(api: string): SdkRoute[] {
  const source = readFileSync(join(sdkDir, 'api', `${api}.js`), 'utf8');
  const starts = [...source.matchAll(/this\.(\w+) = function\(/g)];
  const routes: SdkRoute[] = [];
  starts.forEach((start, i) => {
    const body = source.slice(start.index, starts[i + 1]?.index ?? source.length);
    const call = /callApi\(\s*'([^']+)',\s*'(\w+)'/.exec(body);
    if (call && start[1]) routes.push({ api, name: start[1], method: call[2] ?? '', path: call[1] ?? '' });
  });
  return routes;
}

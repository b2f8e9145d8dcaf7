// kong/plugins/proxy-cache/api.lua on the admin API: DELETE /proxy-cache (every entry),
// GET|DELETE /proxy-cache/{key} (in any instance's dictionary), and
// GET|DELETE /proxy-cache/{plugin id}/caches/{key} (in that instance's). Answers 204, 200 with
// the entry, or 404 without a body, as Kong's. The caches live in the workers: `ask` runs a
// command in every one and gathers their replies.
import type { AdminResult, AdminRouteHook } from '../../admin/admin-types.ts';
import type { Snapshot } from '../../declarative/types.ts';
import { GatewayError } from '../../errors.ts';
import type { CacheCommand, CacheReply } from './cache-commands.ts';

/** What the /proxy-cache endpoints read and drive. */
export type ProxyCacheApiDeps = {
  readonly snapshot: () => Snapshot;
  readonly ask: (command: CacheCommand) => Promise<readonly CacheReply[]>;
};

const NOT_FOUND: AdminResult = { status: 404 };

// A key or id with a malformed escape names nothing.
function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/** The /proxy-cache endpoints as an admin route hook. */
export function proxyCacheRoute(deps: ProxyCacheApiDeps): AdminRouteHook {
  const lookup = async (method: string, key: string, dictionary?: string): Promise<AdminResult> => {
    if (method === 'GET') {
      const found = (await deps.ask({ op: 'get', key, dictionary })).find((r) => r.found);
      return found === undefined ? NOT_FOUND : { status: 200, body: found.entry! };
    }
    if (method === 'DELETE') {
      // Purged in every worker that holds it; 404 when none did.
      return (await deps.ask({ op: 'purge', key, dictionary })).some((r) => r.found) ? { status: 204 } : NOT_FOUND;
    }
    throw new GatewayError('METHOD_NOT_ALLOWED');
  };
  return async (method, path) => {
    if (path === '/proxy-cache' || path === '/proxy-cache/') {
      if (method !== 'DELETE') throw new GatewayError('METHOD_NOT_ALLOWED');
      await deps.ask({ op: 'flush' });
      return { status: 204 };
    }
    if (!path.startsWith('/proxy-cache/')) return undefined;
    const parts = path.slice('/proxy-cache/'.length).split('/').map(decoded);
    if (parts.includes(undefined)) return NOT_FOUND;
    if (parts.length === 1 && parts[0] !== '') return lookup(method, parts[0]!);
    if (parts.length === 3 && parts[1] === 'caches' && parts[2] !== '') {
      const plugin = deps.snapshot().plugins.find((p) => p.id === parts[0] && p.name === 'proxy-cache');
      if (plugin === undefined) return NOT_FOUND;
      return lookup(method, parts[2]!, (plugin.config.memory as { dictionary_name: string }).dictionary_name);
    }
    return undefined;
  };
}

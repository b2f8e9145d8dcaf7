// kong/plugins/redirect/handler.lua: every request is answered `status_code` with Location,
// body "redirecting"; keep_incoming_path puts the request's path and query into the location.
import type { PluginHandler } from '../plugin-handler.ts';
import { REDIRECT_SCHEMA } from './schema.ts';

type RedirectConfig = { readonly status_code: number; readonly location: string; readonly keep_incoming_path: boolean | null };

/** The location with its path and query replaced (ada's set_pathname and set_search: an empty query drops `?`). */
export function withIncomingPath(location: string, path: string, rawQuery: string): string {
  const url = new URL(location);
  url.pathname = path;
  url.search = rawQuery;
  return url.href;
}

/** redirect, PRIORITY 779. */
export const REDIRECT_HANDLER: PluginHandler = {
  name: REDIRECT_SCHEMA.name,
  priority: REDIRECT_SCHEMA.priority,
  build(config) {
    const conf = config as RedirectConfig;
    return {
      access(ctx) {
        let location = conf.location;
        if (conf.keep_incoming_path === true) {
          const q = ctx.target.indexOf('?');
          location = withIncomingPath(location, q === -1 ? ctx.target : ctx.target.slice(0, q), ctx.rawQuery);
        }
        return { status: conf.status_code, message: 'redirecting', text: 'redirecting', headers: { Location: location } };
      },
    };
  },
};

// kong/plugins/cors/handler.lua: preflight requests (OPTIONS with Origin and
// Access-Control-Request-Method) answered by the gateway unless preflight_continue; the CORS
// headers added to every other response in header_filter, errors included.
import type { PluginHandler } from '../plugin-handler.ts';
import type { PluginContext, PluginExit } from '../plugin-context.ts';
import type { ResponseHead } from '../response-head.ts';
import { CorsOrigins } from './cors-origins.ts';
import { CORS_METHODS, CORS_SCHEMA } from './schema.ts';

type CorsConfig = {
  readonly origins: readonly string[] | null;
  readonly headers: readonly string[] | null;
  readonly exposed_headers: readonly string[] | null;
  readonly methods: readonly string[] | null;
  readonly max_age: number | null;
  readonly credentials: boolean;
  readonly private_network: boolean;
  readonly preflight_continue: boolean;
  readonly allow_origin_absent: boolean;
};

// Where the headers go: the preflight answer's header table, or the response head (header_filter).
// The *Known forms take the plugin's own names with values from its configuration (checked when
// it loaded) or constants, without the head's per-call checks; a value from the request (a
// matched or reflected Origin) goes through the checked set().
type Target = {
  set(name: string, value: string): void;
  add(name: string, value: string): void;
  remove(name: string): void;
  setKnown(lower: string, name: string, value: string): void;
  addKnown(name: string, value: string): void;
};

const ACAO = 'access-control-allow-origin';

const provided = (origin: string | undefined): origin is string => origin !== undefined && origin !== '';

// Kong's configure_origin: returns whether every origin is allowed (ACAO *).
function configureOrigin(origins: CorsOrigins, out: Target, headerFilter: boolean, origin: string | undefined): boolean {
  if (origins.allowAll) {
    out.setKnown(ACAO, 'Access-Control-Allow-Origin', '*');
    return true;
  }
  // Vary always, so caches key on the Origin; header_filter adds to the upstream's own Vary.
  if (headerFilter) out.addKnown('Vary', 'Origin');
  else out.setKnown('vary', 'Vary', 'Origin');
  // A single literal entry (CorsOrigins: letters, digits and . : / - only).
  if (origins.single !== undefined) {
    out.setKnown(ACAO, 'Access-Control-Allow-Origin', origins.single);
    return false;
  }
  if (provided(origin)) {
    if (origins.hasAsterisk) {
      out.setKnown(ACAO, 'Access-Control-Allow-Origin', '*');
      return true;
    }
    const allowed = origins.match(origin);
    if (allowed !== undefined) {
      out.set('Access-Control-Allow-Origin', allowed);
      return false;
    }
  }
  out.remove('Access-Control-Allow-Origin');
  return false;
}

function configureCredentials(conf: CorsConfig, allowAll: boolean, out: Target, headerFilter: boolean, origin: string | undefined): void {
  if (!conf.credentials) return;
  if (!allowAll) {
    out.setKnown('access-control-allow-credentials', 'Access-Control-Allow-Credentials', 'true');
    return;
  }
  // ACAC true is invalid with ACAO *: the request's own Origin is reflected instead.
  if (provided(origin)) {
    if (headerFilter) out.add('Vary', 'Origin');
    else out.set('Vary', 'Origin');
    out.set('Access-Control-Allow-Origin', origin);
    out.set('Access-Control-Allow-Credentials', 'true');
  }
}

/** A header table for the preflight answer (kong.response.set_header before exit). */
class HeaderTable implements Target {
  readonly values: Record<string, string> = {};
  set(name: string, value: string): void {
    this.values[name] = value;
  }
  add(name: string, value: string): void {
    this.values[name] = this.values[name] === undefined ? value : `${this.values[name]}, ${value}`;
  }
  remove(name: string): void {
    delete this.values[name];
  }
  setKnown(_lower: string, name: string, value: string): void {
    this.set(name, value);
  }
  addKnown(name: string, value: string): void {
    this.add(name, value);
  }
}

// Set on a request whose preflight the plugin handled (or delegated): no headers in header_filter.
const SKIP = 'cors:skip';

/** cors, PRIORITY 2000. */
export const CORS_HANDLER: PluginHandler = {
  name: CORS_SCHEMA.name,
  priority: CORS_SCHEMA.priority,
  build(config) {
    const conf = config as CorsConfig;
    const origins = new CorsOrigins(conf.origins);
    const methods = (conf.methods ?? CORS_METHODS).join(',');
    const allowHeaders = conf.headers !== null && conf.headers.length > 0 ? conf.headers.join(',') : undefined;
    const exposed = conf.exposed_headers !== null && conf.exposed_headers.length > 0 ? conf.exposed_headers.join(',') : undefined;
    // Checked once here: a value with a line break goes through the head's checked set() (and is refused there).
    const exposedKnown = exposed !== undefined && !/[\r\n\0]/.test(exposed);
    return {
      access(ctx: PluginContext): PluginExit | undefined {
        // Only a preflight is answered here: other requests get their headers in header_filter.
        if (ctx.method !== 'OPTIONS') return undefined;
        const origin = ctx.firstHeader('Origin');
        if (!provided(origin) || ctx.firstHeader('Access-Control-Request-Method') === undefined) return undefined;
        (ctx.shared ??= {})[SKIP] = true;
        if (conf.preflight_continue) return undefined;
        const out = new HeaderTable();
        const allowAll = configureOrigin(origins, out, false, origin);
        configureCredentials(conf, allowAll, out, false, origin);
        const requested = ctx.firstHeader('Access-Control-Request-Headers');
        if (allowHeaders !== undefined) out.set('Access-Control-Allow-Headers', allowHeaders);
        else if (requested !== undefined) out.set('Access-Control-Allow-Headers', requested);
        out.set('Access-Control-Allow-Methods', methods);
        if (conf.max_age !== null) out.set('Access-Control-Max-Age', String(conf.max_age));
        if (conf.private_network && ctx.firstHeader('Access-Control-Request-Private-Network') === 'true') {
          out.set('Access-Control-Allow-Private-Network', 'true');
        }
        return { status: 200, message: '', body: null, headers: out.values };
      },
      headerFilter(ctx: PluginContext, head: ResponseHead): void {
        if (ctx.shared?.[SKIP] === true) return;
        const origin = ctx.firstHeader('Origin');
        if (!provided(origin) && !conf.allow_origin_absent) return;
        const allowAll = configureOrigin(origins, head, true, origin);
        configureCredentials(conf, allowAll, head, true, origin);
        if (exposedKnown) head.setKnown('access-control-expose-headers', 'Access-Control-Expose-Headers', exposed);
        else if (exposed !== undefined) head.set('Access-Control-Expose-Headers', exposed);
      },
    };
  },
};

// `signet-gateway config parse FILE [--json] [--plugins LIST]`: exit 0 and a one-line summary when the file is a
// valid declarative configuration; exit 1 and every problem as `FILE:LINE:COL: message` (with
// --json, Kong's error body with flattened_errors instead) when it is not.
import { readFile } from 'node:fs/promises';
import type { CommandIo } from '../cli.ts';
import { parseDeclarativeConfig, summarizeSnapshot } from '../declarative/index.ts';
import { GatewayError } from '../errors.ts';
import { parsePluginsSetting } from '../plugins/plugin-schemas.ts';
import { redisUrlFields, type RedisUrlFields } from '../declarative/redis-url-defaults.ts';

/** The `config parse` subcommand. */
export async function configParse(args: readonly string[], io: CommandIo, env: Readonly<Record<string, string | undefined>> = {}): Promise<number> {
  const json = args.includes('--json');
  const rest = args.filter((a) => a !== '--json');
  // --plugins LIST (or KONG_PLUGINS): the plugins the file may use, as for `start`.
  let pluginsSetting = env.KONG_PLUGINS === '' ? undefined : env.KONG_PLUGINS;
  const at = rest.findIndex((a) => a === '--plugins' || a.startsWith('--plugins='));
  if (at !== -1) {
    const arg = rest[at]!;
    pluginsSetting = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : rest[at + 1];
    rest.splice(at, arg.includes('=') ? 1 : 2);
  }
  const files = rest;
  if (files.length !== 1 || files[0] === undefined || files[0].startsWith('-')) {
    io.err('usage: signet-gateway config parse FILE [--json] [--plugins LIST]');
    return 2;
  }
  let enabledPlugins: ReadonlySet<string> | undefined;
  try {
    enabledPlugins = pluginsSetting === undefined ? undefined : parsePluginsSetting(pluginsSetting);
  } catch (e) {
    io.err(`signet-gateway config parse: plugins: ${(e as Error).message}`);
    return 2;
  }
  // As at start: a redis-policy plugin naming no host takes REDIS_URL.
  let redisDefaults: RedisUrlFields | undefined;
  if (env.REDIS_URL !== undefined && env.REDIS_URL !== '') {
    try {
      redisDefaults = redisUrlFields(env.REDIS_URL);
    } catch (e) {
      io.err(`signet-gateway config parse: REDIS_URL: ${(e as Error).message}`);
      return 2;
    }
  }
  const file = files[0];
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    io.err(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return 1;
  }
  try {
    const snapshot = parseDeclarativeConfig(text, {
      fileName: file, ...(enabledPlugins === undefined ? {} : { enabledPlugins }), ...(redisDefaults === undefined ? {} : { redisDefaults }),
    });
    io.out(`${file}: ${summarizeSnapshot(snapshot)}`);
    return 0;
  } catch (e) {
    if (!(e instanceof GatewayError)) throw e;
    if (json) io.err(JSON.stringify(e.toBody({ flattenErrors: true }), null, 2));
    else for (const line of e.lines) io.err(line);
    return 1;
  }
}

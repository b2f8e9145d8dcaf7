// kong/plugins/bot-detection/handler.lua: the User-Agent (trimmed) is let through if an allow
// pattern matches, refused (403) if a deny pattern or one of the known-bot patterns does; no
// User-Agent passes, several are a 400. Verdicts are cached per instance, bounded as Kong's
// per-worker LRU (10^4 agents).
import type { PluginExit } from '../plugin-context.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import { BOT_PATTERNS } from './rules.ts';
import { BOT_DETECTION_SCHEMA, compileAgentPattern } from './schema.ts';

type BotDetectionConfig = { readonly allow: readonly string[]; readonly deny: readonly string[] };

const CACHE_SIZE = 10_000;
const FORBIDDEN: PluginExit = { status: 403, message: 'Forbidden' };
const SEVERAL: PluginExit = { status: 400, message: 'Only one User-Agent header allowed' };

/** bot-detection, PRIORITY 2500. */
export const BOT_DETECTION_HANDLER: PluginHandler = {
  name: BOT_DETECTION_SCHEMA.name,
  priority: BOT_DETECTION_SCHEMA.priority,
  build(config) {
    const conf = config as BotDetectionConfig;
    const allow = conf.allow.map(compileAgentPattern);
    const deny = conf.deny.map(compileAgentPattern);
    // User-Agent → refused; oldest first, so the first key is the one to drop when full.
    const verdicts = new Map<string, boolean>();
    const refused = (agent: string): boolean => {
      if (allow.some((r) => r.test(agent))) return false;
      return deny.some((r) => r.test(agent)) || BOT_PATTERNS.some((r) => r.test(agent));
    };
    return {
      access(ctx) {
        const agent = ctx.header('user-agent');
        if (agent === undefined) return undefined;
        if (typeof agent !== 'string') return SEVERAL;
        let verdict = verdicts.get(agent);
        if (verdict === undefined) {
          verdict = refused(agent.trim());
          if (verdicts.size >= CACHE_SIZE) verdicts.delete(verdicts.keys().next().value!);
          verdicts.set(agent, verdict);
        }
        return verdict ? FORBIDDEN : undefined;
      },
    };
  },
};

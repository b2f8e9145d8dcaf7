// Kong's downstream phases over the plugins the access phase collected (kong/init.lua
// execute_collected_plugins_iterator), in PRIORITY order: header_filter on the response head,
// body_filter as one streaming transform, log once the response is over.
import type { PluginContext } from './plugin-context.ts';
import { chainTransforms, type BodyTransform, type ResponseHead } from './response-head.ts';
import type { LogEntry } from './log-entry.ts';

/** Edits the response head; a throwing plugin is skipped (the head is already half-answered in Kong too). */
export function runHeaderFilter(ctx: PluginContext, head: ResponseHead): void {
  const collected = ctx.collected;
  if (collected === undefined) return;
  for (const hooks of collected) {
    if (hooks.headerFilter === undefined) continue;
    try {
      hooks.headerFilter(ctx, head);
    } catch (err) {
      ctx.logError?.(err);
    }
  }
}

/** The body transform for this response, or undefined when no plugin touches its body. */
export function openBodyFilter(ctx: PluginContext, head: ResponseHead): BodyTransform | undefined {
  const collected = ctx.collected;
  if (collected === undefined) return undefined;
  let transforms: BodyTransform[] | undefined;
  for (const hooks of collected) {
    const t = hooks.bodyFilter?.(ctx, head);
    if (t !== undefined) (transforms ??= []).push(t);
  }
  return transforms === undefined ? undefined : chainTransforms(transforms);
}

/** Whether some collected plugin has a log phase (the entry is then built). */
export function wantsLog(ctx: PluginContext): boolean {
  const collected = ctx.collected;
  if (collected === undefined) return false;
  for (let i = 0; i < collected.length; i++) if (collected[i]!.log !== undefined) return true;
  return false;
}

/** The log phase: every collected plugin's log hook, each isolated from the others' failures. */
export function runLogPhase(ctx: PluginContext, entry: LogEntry): void {
  const collected = ctx.collected;
  if (collected === undefined) return;
  for (const hooks of collected) {
    if (hooks.log === undefined) continue;
    try {
      hooks.log(ctx, entry);
    } catch (err) {
      ctx.logError?.(err);
    }
  }
}

import type { Browser, LaunchOptions } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium-flags.ts';

export { CHROMIUM_ARGS, CHROMIUM_PATH };

/**
 * Launches Debian's Chromium through playwright-core. The caller must close it.
 * playwright-core is imported on first use only: every process that imports @signet/kit (each
 * gateway worker among them) would otherwise pay ~0.7 s of CPU loading it at start.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}

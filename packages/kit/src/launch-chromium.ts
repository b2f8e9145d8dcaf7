import type { Browser, LaunchOptions } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, SANDBOXED_CHROMIUM_ARGS, SANDBOXED_CHROMIUM_PATH } from './chromium-flags.ts';

export { CHROMIUM_ARGS, CHROMIUM_PATH };

/**
 * Launches Debian's Chromium through playwright-core. The caller must close it. `sandboxed`:
 * for untrusted content (the html converter), as an unprivileged user with the sandbox on.
 * playwright-core is imported on first use only: every process that imports @signet/kit (each
 * gateway worker among them) would otherwise pay ~0.7 s of CPU loading it at start.
 */
export async function launchChromium(options: LaunchOptions & { sandboxed?: boolean } = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const { sandboxed = false, ...launch } = options;
  return chromium.launch({
    executablePath: sandboxed ? SANDBOXED_CHROMIUM_PATH : CHROMIUM_PATH,
    headless: true,
    // playwright adds --no-sandbox itself unless told the sandbox is wanted.
    chromiumSandbox: sandboxed,
    ...launch,
    args: [...(sandboxed ? SANDBOXED_CHROMIUM_ARGS : CHROMIUM_ARGS), ...(launch.args ?? [])],
  });
}

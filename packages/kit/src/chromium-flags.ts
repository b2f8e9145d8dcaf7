/** Debian's Chromium; playwright-core never downloads a browser of its own here. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for a headless Chromium on a machine with no outside network: without the
 * background-networking flags it keeps opening connections that the sandbox refuses.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

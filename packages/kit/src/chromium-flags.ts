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

/**
 * Chromium for untrusted content: through chromium-unprivileged.sh (never root: the profile is
 * handed to an unprivileged user), with the sandbox on. {@link CHROMIUM_ARGS} without
 * `--no-sandbox`; the tests' browsers, which only load our own pages, keep the plain launch.
 */
export const SANDBOXED_CHROMIUM_PATH = new URL('./chromium-unprivileged.sh', import.meta.url).pathname;
export const SANDBOXED_CHROMIUM_ARGS: readonly string[] = CHROMIUM_ARGS.filter((a) => a !== '--no-sandbox');

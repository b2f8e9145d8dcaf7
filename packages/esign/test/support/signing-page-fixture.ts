import { createServer } from 'node:http';
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { buildConverter, type Converter } from '@signet/pdf';

/** What a file of signing-page tests shares: one Chromium, one warm converter, and the app's return page. */
export type SigningPageFixture = { readonly browser: Browser; readonly converter: Converter; readonly returnUrl: string };

/**
 * Registers the file's before/after hooks that start and stop them; the fields are set once
 * `before` has run (read them inside tests, not at module level).
 */
export function signingPageFixture(): SigningPageFixture {
  const fx = {} as { browser: Browser; converter: Converter; returnUrl: string };
  const returnServer = createServer((_req, res) => res.end('back at the app'));
  before(async () => {
    [fx.browser, fx.converter] = await Promise.all([launchChromium(), buildConverter({ officeWorkers: 1, htmlPages: 1 })]);
    fx.returnUrl = `http://127.0.0.1:${await listenOnLoopback(returnServer)}/return`;
  });
  after(async () => {
    await fx.browser.close();
    await fx.converter.close();
    await new Promise((resolve) => returnServer.close(resolve));
  });
  return fx;
}

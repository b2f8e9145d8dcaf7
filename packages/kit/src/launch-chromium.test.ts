import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium } from './launch-chromium.ts';

test('Debian Chromium launches headless and renders a page', async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.setContent('<button onclick="this.textContent=\'clicked\'">Press</button>');
    await page.getByRole('button', { name: 'Press' }).click();
    assert.equal(await page.textContent('button'), 'clicked');
  } finally {
    await browser.close();
  }
});

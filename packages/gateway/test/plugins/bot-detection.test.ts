// bot-detection against a real two-worker gateway: cases from Kong's
// spec/03-plugins/21-bot-detection/01-access_spec.lua (regular agents pass, known bots and
// denied agents are refused, an allowed bot passes), plus several User-Agent headers.
import { test } from 'node:test';
import { checkCase, startPluginGateway, type PluginCase } from './plugins.fixture.ts';

const HELLOWORLD = 'HelloWorld';
const FACEBOOK = 'facebookexternalhit/1.1';
const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/50.0.2661.102 Safari/537.36';

const yml = (upstream: string): string => `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes:
      - { name: plain, hosts: [bot.test], plugins: [{ name: bot-detection }] }
      - { name: denied, hosts: [bot2.test], plugins: [{ name: bot-detection, config: { deny: [${HELLOWORLD}] } }] }
      - { name: allowed, hosts: [bot3.test], plugins: [{ name: bot-detection, config: { allow: ["${FACEBOOK}"] } }] }
      - { name: pattern, hosts: [bot4.test], plugins: [{ name: bot-detection, config: { deny: ["^Evil(?:Corp)?/\\\\d"] } }] }
`;

const as = (host: string, agent?: string | string[]) => ({ Host: host, ...(agent === undefined ? {} : { 'User-Agent': agent }) });

const CASES: PluginCase[] = [
  { title: 'no User-Agent', path: '/', headers: as('bot.test'), status: 200 },
  { title: 'a browser', path: '/', headers: as('bot.test', CHROME), status: 200 },
  { title: 'an unknown agent', path: '/', headers: as('bot.test', HELLOWORLD), status: 200 },
  { title: 'curl', path: '/', headers: as('bot.test', 'curl/7.43.0'), status: 200 },
  { title: 'Googlebot', path: '/', headers: as('bot.test', 'Googlebot/2.1 (+http://www.google.com/bot.html)'), status: 403, message: 'Forbidden' },
  { title: 'Facebook', path: '/', headers: as('bot.test', FACEBOOK), status: 403, message: 'Forbidden' },
  { title: 'an HTTP library in the bot list', path: '/', headers: as('bot.test', 'python-requests/2.31 Python-urllib/3.11'), status: 403, message: 'Forbidden' },
  { title: 'a denied agent', path: '/', headers: as('bot2.test', HELLOWORLD), status: 403, message: 'Forbidden' },
  { title: 'deny does not refuse a browser', path: '/', headers: as('bot2.test', CHROME), status: 200 },
  { title: 'an allowed bot', path: '/', headers: as('bot3.test', FACEBOOK), status: 200 },
  { title: 'allow does not let other bots in', path: '/', headers: as('bot3.test', 'Googlebot/2.1'), status: 403, message: 'Forbidden' },
  { title: 'a deny pattern, matched after trimming', path: '/', headers: as('bot4.test', 'EvilCorp/1 '), status: 403, message: 'Forbidden' },
  { title: 'a deny pattern that does not match', path: '/', headers: as('bot4.test', 'NotEvil/1'), status: 200 },
  { title: 'several User-Agent headers', path: '/', headers: as('bot.test', [CHROME, 'x']), status: 400, message: 'Only one User-Agent header allowed' },
];

test('bot-detection: Kong access spec cases on two workers', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const c of CASES) await checkCase(g, c);
});

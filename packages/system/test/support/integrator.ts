import { Agent, request } from 'undici';
import type { TestContext } from 'node:test';
import { samplePdf } from '../../../esign/test/support/sample-pdf.ts';
import { esignCli, type RunningSystem } from './start-system.ts';
import { tokenViaForms } from './token-via-forms.ts';

/** An integrator of the running system: a user, an app, a signature token, a PDF to send. */
export type Integrator = { accountId: string; accessToken: string; basePath: string; pdfBase64: string; trusting: Agent };

/** Creates a user and an app with the CLI and takes a token through the gateway's https listener. */
export async function integratorOf(t: TestContext, system: RunningSystem, email: string): Promise<Integrator> {
  const password = 'correct horse battery staple';
  const user = await esignCli<{ accountId: string }>(system.env, ['user', 'create', '--email', email, '--password', password, '--name', 'Load Tester']);
  const redirectUri = 'http://127.0.0.1:9/callback';
  const app = await esignCli<{ integrationKey: string; secretKey: string }>(system.env, ['app', 'create', '--user', email, '--name', 'Load', '--redirect-uri', redirectUri]);
  const trusting = new Agent({ connect: { ca: system.caPem } });
  t.after(() => trusting.close());
  const accessToken = await tokenViaForms(system.origin, trusting, { clientId: app.integrationKey, secret: app.secretKey, redirectUri }, { email, password });
  return { accountId: user.accountId, accessToken, basePath: `${system.origin}/restapi`, pdfBase64: Buffer.from(await samplePdf(1)).toString('base64'), trusting };
}

/** A target's health as the gateway's admin API shows it. */
export async function targetHealth(system: RunningSystem, target: string): Promise<string | undefined> {
  const res = await request(`http://127.0.0.1:${system.ports.admin}/upstreams/esign.upstream/health`);
  const body = (await res.body.json()) as { data: { target: string; health: string }[] };
  return body.data.find((d) => d.target === target)?.health;
}

/** The pid of the part's current process, from the supervisor's "started (pid N)" lines. */
export function currentPid(output: string, part: string): number | undefined {
  const all = [...output.matchAll(new RegExp(`^system {3}\\| ${part} started(?: again)? \\(pid (\\d+)\\)`, 'gm'))];
  const last = all.at(-1)?.[1];
  return last === undefined ? undefined : Number(last);
}

import { authorizeViaForms, tokenRequest } from './authorize.ts';
import { seedUserAndApp, type Harness } from './esign-harness.ts';

/** Another user with an account of their own and a token for it: the tenant next door in attack tests. */
export async function secondAccount(h: Harness): Promise<{ accountId: string; token: string }> {
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  return { accountId: seed.accountId, token };
}

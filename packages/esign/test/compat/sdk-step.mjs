// Calls of the REAL docusign-esign SDK, run in a child process so that NODE_EXTRA_CA_CERTS
// (read by Node only at start) makes it trust the test CA (or the dev CA `npm start` generated,
// for packages/system's tests over the gateway): the SDK is used unchanged.
// One call: argv[2] = JSON {step, ...}; output: one JSON line {ok, value} or {ok:false, status, data, code}.
// Several calls (`--lines`, sdk-steps.ts): one JSON {id, step, ...} per stdin line, one answer
// line {id, ok, ...} each, until stdin ends: one process and one SDK load for a whole test.
import { createInterface } from 'node:readline';
import docusign from 'docusign-esign';

function client(input) {
  const api = new docusign.ApiClient();
  // docusign-esign src/ApiClient.js: setBasePath resets oAuthBasePath, so setBasePath first, then setOAuthBasePath (host, no scheme).
  if (input.basePath) api.setBasePath(input.basePath);
  if (input.authHost) api.setOAuthBasePath(input.authHost);
  if (input.accessToken) api.addDefaultHeader('Authorization', `Bearer ${input.accessToken}`);
  return api;
}

async function run(input) {
  switch (input.step) {
    case 'authorizationUri':
      return client(input).getAuthorizationUri(input.clientId, input.scopes, input.redirectUri, 'code', input.state);
    case 'generateAccessToken':
      return client(input).generateAccessToken(input.clientId, input.clientSecret, input.code);
    case 'getUserInfo':
      return client(input).getUserInfo(input.accessToken);
    case 'requestJWTUserToken': {
      const res = await client(input).requestJWTUserToken(input.clientId, input.userId, input.scopes, Buffer.from(input.privateKey), 3600);
      return { status: res.status, body: res.body };
    }
    case 'requestJWTApplicationToken': {
      const res = await client(input).requestJWTApplicationToken(input.clientId, input.scopes, Buffer.from(input.privateKey), 3600);
      return { status: res.status, body: res.body };
    }
    case 'getAccountInformation':
      return new docusign.AccountsApi(client(input)).getAccountInformation(input.accountId);
    case 'createEnvelope':
      return new docusign.EnvelopesApi(client(input)).createEnvelope(input.accountId, { envelopeDefinition: input.envelopeDefinition });
    case 'getEnvelope':
      return new docusign.EnvelopesApi(client(input)).getEnvelope(input.accountId, input.envelopeId, input.options ?? {});
    case 'listRecipients':
      return new docusign.EnvelopesApi(client(input)).listRecipients(input.accountId, input.envelopeId, { includeTabs: 'true' });
    case 'getDocument': {
      const bytes = await new docusign.EnvelopesApi(client(input)).getDocument(input.accountId, input.envelopeId, input.documentId);
      return Buffer.from(bytes).toString('base64');
    }
    default:
      throw new Error(`unknown step ${input.step}`);
  }
}

async function answer(input) {
  try {
    return { ok: true, value: await run(input) };
  } catch (err) {
    // The SDK rejects with the raw AxiosError (callApi in docusign-esign src/ApiClient.js).
    return { ok: false, status: err?.response?.status, data: err?.response?.data, code: err?.code, message: String(err?.message ?? err) };
  }
}

if (process.argv[2] === '--lines') {
  for await (const line of createInterface({ input: process.stdin })) {
    const { id, ...input } = JSON.parse(line);
    void answer(input).then((result) => process.stdout.write(`${JSON.stringify({ id, ...result })}\n`));
  }
} else {
  process.stdout.write(`${JSON.stringify(await answer(JSON.parse(process.argv[2] ?? '{}')))}\n`);
}

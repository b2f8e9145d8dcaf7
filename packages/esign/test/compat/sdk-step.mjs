// One call of the REAL docusign-esign SDK, run in a child process so that NODE_EXTRA_CA_CERTS
// (read by Node only at start) makes it trust the test CA (or the dev CA `npm start` generated,
// for packages/system's tests over the gateway): the SDK is used unchanged.
// Input: argv[2] = JSON {step, ...}; output: one JSON line {ok, value} or {ok:false, status, data, code}.
import docusign from 'docusign-esign';

const input = JSON.parse(process.argv[2] ?? '{}');

function client() {
  const api = new docusign.ApiClient();
  // docusign-esign src/ApiClient.js: setBasePath resets oAuthBasePath, so setBasePath first, then setOAuthBasePath (host, no scheme).
  if (input.basePath) api.setBasePath(input.basePath);
  if (input.authHost) api.setOAuthBasePath(input.authHost);
  if (input.accessToken) api.addDefaultHeader('Authorization', `Bearer ${input.accessToken}`);
  return api;
}

async function run() {
  switch (input.step) {
    case 'authorizationUri':
      return client().getAuthorizationUri(input.clientId, input.scopes, input.redirectUri, 'code', input.state);
    case 'generateAccessToken':
      return client().generateAccessToken(input.clientId, input.clientSecret, input.code);
    case 'getUserInfo':
      return client().getUserInfo(input.accessToken);
    case 'requestJWTUserToken': {
      const res = await client().requestJWTUserToken(input.clientId, input.userId, input.scopes, Buffer.from(input.privateKey), 3600);
      return { status: res.status, body: res.body };
    }
    case 'requestJWTApplicationToken': {
      const res = await client().requestJWTApplicationToken(input.clientId, input.scopes, Buffer.from(input.privateKey), 3600);
      return { status: res.status, body: res.body };
    }
    case 'getAccountInformation':
      return new docusign.AccountsApi(client()).getAccountInformation(input.accountId);
    case 'createEnvelope':
      return new docusign.EnvelopesApi(client()).createEnvelope(input.accountId, { envelopeDefinition: input.envelopeDefinition });
    case 'getEnvelope':
      return new docusign.EnvelopesApi(client()).getEnvelope(input.accountId, input.envelopeId, input.options ?? {});
    case 'listRecipients':
      return new docusign.EnvelopesApi(client()).listRecipients(input.accountId, input.envelopeId, { includeTabs: 'true' });
    case 'getDocument': {
      const bytes = await new docusign.EnvelopesApi(client()).getDocument(input.accountId, input.envelopeId, input.documentId);
      return Buffer.from(bytes).toString('base64');
    }
    default:
      throw new Error(`unknown step ${input.step}`);
  }
}

try {
  const value = await run();
  process.stdout.write(`${JSON.stringify({ ok: true, value })}\n`);
} catch (err) {
  // The SDK rejects with the raw AxiosError (callApi in docusign-esign src/ApiClient.js).
  process.stdout.write(`${JSON.stringify({ ok: false, status: err?.response?.status, data: err?.response?.data, code: err?.code, message: String(err?.message ?? err) })}\n`);
}

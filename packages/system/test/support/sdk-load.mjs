// Steady load from the REAL docusign-esign SDK, in one child process (NODE_EXTRA_CA_CERTS makes it
// trust the system's dev CA): `loops` loops, each alternating a listStatusChanges (GET) and a
// createEnvelope of a draft (POST), paced by `paceMs`. One JSON line per call on stdout:
// {at, op, ok, status?, code?}. Stops after the call in progress when stdin closes.
import docusign from 'docusign-esign';

const input = JSON.parse(process.argv[2] ?? '{}');
const api = new docusign.ApiClient();
api.setBasePath(input.basePath);
api.addDefaultHeader('Authorization', `Bearer ${input.accessToken}`);
const envelopes = new docusign.EnvelopesApi(api);
const draft = {
  emailSubject: 'Load', status: 'created',
  documents: [{ documentId: '1', name: 'Load.pdf', fileExtension: 'pdf', documentBase64: input.pdfBase64 }],
  recipients: { signers: [{ email: 'load@example.com', name: 'Load Signer', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] } }] },
};

let running = true;
process.stdin.on('end', () => (running = false));
process.stdin.resume();

const ops = {
  list: () => envelopes.listStatusChanges(input.accountId, { fromDate: '2020-01-01T00:00:00Z' }),
  create: () => envelopes.createEnvelope(input.accountId, { envelopeDefinition: draft }),
};

async function loop() {
  let i = 0;
  while (running) {
    const op = i++ % 2 === 0 ? 'list' : 'create';
    const at = Date.now();
    try {
      await ops[op]();
      process.stdout.write(`${JSON.stringify({ at, op, ok: true })}\n`);
    } catch (err) {
      process.stdout.write(`${JSON.stringify({ at, op, ok: false, status: err?.response?.status, code: err?.code, message: String(err?.message ?? err).slice(0, 200) })}\n`);
    }
    await new Promise((resolve) => setTimeout(resolve, input.paceMs));
  }
}

await Promise.all(Array.from({ length: input.loops }, loop));

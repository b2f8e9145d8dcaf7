import type { CompletionResults } from '../domain/signing/completion-results.ts';
import type { Repositories } from '../store/repositories.ts';

/** CompletionResults over the tables the completion worker writes (signed documents, failures). */
export function storedCompletionResults(repositories: Pick<Repositories, 'signing' | 'completionFailures'>): CompletionResults {
  return {
    signedDocument: (envelopeId, documentId) => repositories.signing.signedDocument(envelopeId, documentId),
    problem: (envelopeId) => repositories.completionFailures.find(envelopeId),
  };
}

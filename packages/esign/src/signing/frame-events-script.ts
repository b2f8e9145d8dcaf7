/**
 * The script of a focused view's pages (docs/esign-signing.md, "Focused view"): it tells the
 * framing page what happens, with postMessage to each of the view's messageOrigins by name
 * (never `*`, so no other page that frames or opens this one hears it). The ceremony page
 * says `ready`; the page a Finish or Decline answers says `sessionEnd` with DocuSign's
 * sessionEndType (the returnUrl's `event`), then goes on to the returnUrl as an unframed
 * session does.
 */
export const FRAME_EVENTS_SCRIPT = `(() => {
  'use strict';
  const data = document.body.dataset;
  let origins = [];
  try { origins = JSON.parse(data.messageOrigins || '[]'); } catch { origins = []; }
  const post = (message) => {
    if (window.parent === window) return;
    for (const origin of origins) window.parent.postMessage(message, origin);
  };
  if (data.sessionEnd) {
    post({ source: 'signet', type: 'sessionEnd', sessionEndType: data.sessionEnd, returnUrl: data.returnUrl });
    if (data.returnUrl) window.location.replace(data.returnUrl);
  } else {
    post({ source: 'signet', type: 'ready' });
  }
})();
`;

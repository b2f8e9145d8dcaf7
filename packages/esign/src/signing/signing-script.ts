/**
 * The signing page's only script, served same-origin (the CSP allows no inline script). Plain
 * browser JavaScript, no build step: it places each "Sign here" tab over its page image (the
 * CSP also forbids inline style attributes, so positions travel in data-* attributes and are
 * applied through the CSSOM, which CSP does not restrict), lets the signer adopt a signature
 * (typed in the handwriting font, or drawn on a canvas), signs tabs, and fills the Finish form.
 */
export const SIGNING_SCRIPT = String.raw`
'use strict';
(function () {
  var $ = function (sel) { return document.querySelector(sel); };
  var tabs = Array.prototype.slice.call(document.querySelectorAll('button.tab'));
  var finishForm = $('#finish-form');
  var finishButton = $('#finish');
  var progress = $('#progress');
  var adoptDialog = $('#adopt-dialog');
  var declineDialog = $('#decline-dialog');
  var nameInput = $('#signature-text');
  var preview = $('#typed-preview');
  var pad = $('#signature-pad');
  var adopted = null; // {kind:'typed', text} | {kind:'image', dataUrl}
  var pendingTab = null;
  var drawn = false;

  // Positions are PDF points from the page's top-left; percentages keep them right at any width.
  tabs.forEach(function (tab) {
    var page = tab.parentElement;
    var pw = Number(page.getAttribute('data-width'));
    var ph = Number(page.getAttribute('data-height'));
    tab.style.left = (100 * Number(tab.getAttribute('data-x')) / pw) + '%';
    tab.style.top = (100 * Number(tab.getAttribute('data-y')) / ph) + '%';
    tab.style.width = (100 * Number(tab.getAttribute('data-w')) / pw) + '%';
    tab.style.height = (100 * Number(tab.getAttribute('data-h')) / ph) + '%';
    tab.addEventListener('click', function () {
      if (tab.getAttribute('data-signed') === 'true') return;
      if (adopted) { sign(tab); return; }
      pendingTab = tab;
      adoptDialog.showModal();
      nameInput.focus();
    });
  });

  function refresh() {
    var required = tabs.filter(function (t) { return t.getAttribute('data-required') === 'true'; });
    var left = required.filter(function (t) { return t.getAttribute('data-signed') !== 'true'; }).length;
    finishButton.disabled = left > 0;
    progress.textContent = left > 0 ? (left + ' of ' + required.length + ' signature' + (required.length === 1 ? '' : 's') + ' left') : 'All set: select Finish.';
    var next = tabs.filter(function (t) { return t.getAttribute('data-signed') !== 'true'; })[0];
    tabs.forEach(function (t) { t.classList.toggle('next', t === next); });
  }

  function sign(tab) {
    tab.setAttribute('data-signed', 'true');
    tab.setAttribute('aria-label', 'Signed');
    tab.textContent = '';
    if (adopted.kind === 'typed') {
      var span = document.createElement('span');
      span.className = 'script';
      span.textContent = adopted.text;
      tab.appendChild(span);
    } else {
      var img = document.createElement('img');
      img.src = adopted.dataUrl;
      img.alt = '';
      tab.appendChild(img);
    }
    tab.classList.add('signed');
    var ids = tabs.filter(function (t) { return t.getAttribute('data-signed') === 'true'; }).map(function (t) { return t.getAttribute('data-tab-id'); });
    finishForm.elements.signedTabs.value = ids.join(',');
    refresh();
  }

  function mode() { return $('input[name=mode]:checked').value; }
  function showMode() {
    $('#typed-panel').hidden = mode() !== 'typed';
    $('#drawn-panel').hidden = mode() !== 'drawn';
  }
  Array.prototype.forEach.call(document.querySelectorAll('input[name=mode]'), function (r) { r.addEventListener('change', showMode); });
  nameInput.addEventListener('input', function () { preview.textContent = nameInput.value; });
  preview.textContent = nameInput.value;

  // Drawing: pointer events cover mouse, pen and touch; the canvas keeps its own resolution.
  var ctx = pad.getContext('2d');
  ctx.lineWidth = 3; ctx.lineCap = 'round'; ctx.strokeStyle = '#0d1a59';
  var last = null;
  function at(e) { var r = pad.getBoundingClientRect(); return { x: (e.clientX - r.left) * pad.width / r.width, y: (e.clientY - r.top) * pad.height / r.height }; }
  pad.addEventListener('pointerdown', function (e) { pad.setPointerCapture(e.pointerId); last = at(e); });
  pad.addEventListener('pointermove', function (e) {
    if (!last) return;
    var p = at(e);
    ctx.beginPath(); ctx.moveTo(last.x, last.y); ctx.lineTo(p.x, p.y); ctx.stroke();
    last = p; drawn = true;
  });
  pad.addEventListener('pointerup', function () { last = null; });
  $('#clear-pad').addEventListener('click', function () { ctx.clearRect(0, 0, pad.width, pad.height); drawn = false; });

  $('#adopt-button').addEventListener('click', function () {
    var error = $('#adopt-error');
    if (mode() === 'typed') {
      var text = nameInput.value.replace(/\s+/g, ' ').trim();
      if (!text) { error.textContent = 'Type your name to adopt a signature.'; return; }
      adopted = { kind: 'typed', text: text };
      finishForm.elements.signatureKind.value = 'typed';
      finishForm.elements.signatureText.value = text;
    } else {
      if (!drawn) { error.textContent = 'Draw your signature in the box first.'; return; }
      adopted = { kind: 'image', dataUrl: pad.toDataURL('image/png') };
      finishForm.elements.signatureKind.value = 'image';
      finishForm.elements.signatureImage.value = adopted.dataUrl;
    }
    error.textContent = '';
    adoptDialog.close();
    if (pendingTab) sign(pendingTab);
    pendingTab = null;
  });
  $('#adopt-cancel').addEventListener('click', function () { pendingTab = null; adoptDialog.close(); });
  $('#decline-open').addEventListener('click', function () { declineDialog.showModal(); });
  $('#decline-cancel').addEventListener('click', function () { declineDialog.close(); });
  finishForm.addEventListener('submit', function () { finishButton.disabled = true; });
  showMode();
  refresh();
})();
`;

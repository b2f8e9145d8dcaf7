import { MAX_ATTACHMENT_BYTES } from './parse-finish-form.ts';

/**
 * The signing page's only script, served same-origin (the CSP allows no inline script) after
 * tab-rules-script.ts, whose SignetTabRules it uses. Plain browser JavaScript, no build step: it
 * places each tab over its page image (the CSP also forbids inline style attributes, so
 * positions travel in data-* attributes and are applied through the CSSOM, which CSP does not
 * restrict), lets the signer adopt a signature (typed in the handwriting font, or drawn on a
 * canvas) and sign tabs, keeps the form tabs' values: conditions shown or hidden, formulas
 * recomputed, each tab's message (aria-invalid, aria-describedby) once touched; Finish (and
 * Approve) enabled only when nothing stops it; and fills the Finish form. Every word it shows is
 * the page's data in the recipient's language (`#page-messages`, page-messages.ts; each tab's
 * messages in its rule, tab-rule.ts): it never builds a sentence itself.
 */
export const SIGNING_SCRIPT = String.raw`
'use strict';
(function () {
  var $ = function (sel) { return document.querySelector(sel); };
  var tabs = Array.prototype.slice.call(document.querySelectorAll('button.tab.sign'));
  var finishForm = $('#finish-form');
  var finishButton = $('#finish');
  var approveButtons = Array.prototype.slice.call(document.querySelectorAll('button.approve'));
  var viewButtons = Array.prototype.slice.call(document.querySelectorAll('button.view-tab'));
  var progress = $('#progress');
  var adoptDialog = $('#adopt-dialog');
  var declineDialog = $('#decline-dialog');
  var nameInput = $('#signature-text');
  var preview = $('#typed-preview');
  var pad = $('#signature-pad');
  var adopted = null; // {kind:'typed', text} | {kind:'image', dataUrl}
  var pendingTab = null;
  var drawn = false;
  var rulesData = JSON.parse(($('#tab-rules') || { textContent: '[]' }).textContent);
  var M = JSON.parse($('#page-messages').textContent);
  var R = SignetTabRules;

  // Positions are PDF points from the page's top-left; percentages keep them right at any width,
  // and font sizes follow the page's width (container units), never below a readable 12px.
  Array.prototype.forEach.call(document.querySelectorAll('.page [data-x]'), function (el) {
    var page = el.closest('.page');
    var pw = Number(page.getAttribute('data-width'));
    var ph = Number(page.getAttribute('data-height'));
    el.style.left = (100 * Number(el.getAttribute('data-x')) / pw) + '%';
    el.style.top = (100 * Number(el.getAttribute('data-y')) / ph) + '%';
    if (el.hasAttribute('data-w')) el.style.width = (100 * Number(el.getAttribute('data-w')) / pw) + '%';
    if (el.hasAttribute('data-h')) el.style.height = (100 * Number(el.getAttribute('data-h')) / ph) + '%';
    var fs = el.getAttribute('data-font-size');
    if (fs) el.style.fontSize = 'max(12px, ' + (100 * Number(fs) / pw) + 'cqw)';
  });
  tabs.forEach(function (tab) {
    tab.addEventListener('click', function () {
      if (tab.getAttribute('data-signed') === 'true') return;
      if (adopted) { sign(tab); return; }
      pendingTab = tab;
      adoptDialog.showModal();
      nameInput.focus();
    });
  });

  // The form tabs: one entry per tab, reading its value from its control(s).
  var entries = rulesData.map(function (d) {
    var id = d.id;
    var rule = d.rule;
    var input = document.getElementById('tab-' + id);
    var radios = Array.prototype.slice.call(document.querySelectorAll('input[type=radio]')).filter(function (r) { return r.name === 'radio-' + id; });
    var boxes = Array.prototype.slice.call(document.querySelectorAll('[data-tab]')).filter(function (el) { return el.getAttribute('data-tab') === id; });
    var message = document.getElementById('msg-' + id);
    var controls = rule.type === 'radioGroup' ? radios : input ? [input] : [];
    return {
      id: id, rule: rule, boxes: boxes, message: message, controls: controls, touched: false, fixed: d.value,
      get: function () {
        if (rule.type === 'checkbox') return input && input.checked ? 'true' : 'false';
        if (rule.type === 'radioGroup') { var c = radios.filter(function (r) { return r.checked; })[0]; return c ? c.value : ''; }
        if (rule.takesValue && input) return input.value;
        return this.fixed;
      },
    };
  });
  entries.forEach(function (e) {
    e.controls.forEach(function (c) {
      c.addEventListener('input', function () { if (c.type !== 'text' && c.type !== 'email') e.touched = true; update(); });
      c.addEventListener('change', function () {
        e.touched = true;
        // A Currency tab with money shows the amount as it will be kept: 5000 becomes $5,000.00 USD.
        if (e.rule.money) { var k = R.kept(e.rule, c.value); if (k !== c.value) c.value = k; }
        update();
      });
      c.addEventListener('blur', function () { e.touched = true; update(); });
    });
  });
  viewButtons.forEach(function (b) {
    b.addEventListener('click', function () { b.setAttribute('aria-pressed', 'true'); b.classList.add('viewed'); update(); });
  });
  Array.prototype.forEach.call(document.querySelectorAll('button.decline-tab'), function (b) {
    b.addEventListener('click', function () {
      var reason = $('#decline-reason');
      if (!reason.value) reason.value = b.getAttribute('data-reason') || '';
      declineDialog.showModal();
    });
  });

  // Signer attachments: each file is checked here as the server checks it (size, then kind by its
  // first bytes: PDF, PNG or JPEG), kept as a data URL and sent with the Finish.
  var MAX_ATTACHMENT = ${MAX_ATTACHMENT_BYTES};
  var attachInputs = Array.prototype.slice.call(document.querySelectorAll('input.attachment'));
  var attached = {};
  function kindOf(b) {
    if (b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46 && b[4] === 0x2d) return 'pdf';
    if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
    if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
    return '';
  }
  attachInputs.forEach(function (input) {
    var id = input.getAttribute('data-attachment');
    var message = document.getElementById('msg-' + id);
    function say(text) {
      message.textContent = text;
      if (text) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    }
    input.addEventListener('change', function () {
      delete attached[id];
      var file = input.files && input.files[0];
      if (!file) { say(''); refresh(); return; }
      if (file.size > MAX_ATTACHMENT) { input.value = ''; say(M.fileTooLarge); refresh(); return; }
      var reader = new FileReader();
      reader.onload = function () {
        var bytes = new Uint8Array(reader.result);
        if (!kindOf(bytes)) { input.value = ''; say(M.fileKind); refresh(); return; }
        var dataUrl = new FileReader();
        dataUrl.onload = function () { attached[id] = dataUrl.result; say(''); refresh(); };
        dataUrl.readAsDataURL(file);
      };
      reader.readAsArrayBuffer(file);
    });
  });

  // Supplemental documents (supplement-strip.ts): View opens the dialog (its pages load only
  // then, which is what the server counts as viewed) or fetches the file; acceptances are checkboxes.
  var supplementViews = Array.prototype.slice.call(document.querySelectorAll('.supplement-view'));
  var supplementAccepts = Array.prototype.slice.call(document.querySelectorAll('input[data-must-accept]'));
  supplementViews.forEach(function (v) {
    var dialog = document.getElementById('supplement-dialog-' + v.getAttribute('data-document'));
    v.addEventListener('click', function () {
      v.setAttribute('data-viewed', 'true');
      if (dialog) {
        Array.prototype.forEach.call(dialog.querySelectorAll('img[data-src]'), function (img) { if (!img.getAttribute('src')) img.src = img.getAttribute('data-src'); });
        dialog.showModal();
      }
      refresh();
    });
    if (dialog) {
      dialog.querySelector('.supplement-close').addEventListener('click', function () { dialog.close(); });
      dialog.addEventListener('close', function () { v.focus(); });
    }
  });
  supplementAccepts.forEach(function (c) { c.addEventListener('change', refresh); });

  var problems = [];
  function update() {
    var values = entries.map(function (e) { return e.get(); });
    var shown = R.shown(entries.map(function (e) { return e.rule; }), values);
    values = R.formulas(entries.map(function (e) { return e.rule; }), values);
    problems = [];
    entries.forEach(function (e, i) {
      e.boxes.forEach(function (b) { b.hidden = !shown[i]; });
      if (e.rule.type === 'formula' && e.controls[0]) e.controls[0].value = values[i];
      if (e.rule.type === 'formula') e.fixed = values[i];
      var why = shown[i] ? R.problem(e.rule, values[i]) : '';
      if (why) problems.push(e);
      var visible = why && e.touched ? why : '';
      if (e.message && e.message.textContent !== visible) e.message.textContent = visible;
      e.controls.forEach(function (c) { if (visible) c.setAttribute('aria-invalid', 'true'); else c.removeAttribute('aria-invalid'); });
    });
    refresh();
  }

  function refresh() {
    var required = tabs.filter(function (t) { return t.getAttribute('data-required') === 'true'; });
    var left = required.filter(function (t) { return t.getAttribute('data-signed') !== 'true'; }).length;
    var unread = viewButtons.filter(function (b) { return b.getAttribute('data-required-read') === 'true' && b.getAttribute('aria-pressed') !== 'true'; }).length;
    var missing = attachInputs.filter(function (i) { return i.getAttribute('data-required') === 'true' && !attached[i.getAttribute('data-attachment')]; }).length;
    unread += supplementViews.filter(function (v) { return v.getAttribute('data-must-view') === 'true' && v.getAttribute('data-viewed') !== 'true'; }).length;
    var unaccepted = supplementAccepts.filter(function (c) { return !c.checked; }).length;
    var blocked = left > 0 || problems.length > 0 || unread > 0 || missing > 0 || unaccepted > 0;
    finishButton.disabled = blocked;
    approveButtons.forEach(function (b) { b.disabled = blocked; });
    var parts = [];
    if (problems.length > 0) parts.push(M.fields[problems.length]);
    if (left > 0) parts.push(M.signatures[left]);
    if (unread > 0) parts.push(M.toView[unread]);
    if (missing > 0) parts.push(M.toAttach[missing]);
    if (unaccepted > 0) parts.push(M.toAccept[unaccepted]);
    progress.textContent = blocked ? parts.join(M.separator) : M.allSet;
    var next = tabs.filter(function (t) { return t.getAttribute('data-signed') !== 'true'; })[0];
    tabs.forEach(function (t) { t.classList.toggle('next', t === next); });
  }

  function sign(tab) {
    tab.setAttribute('data-signed', 'true');
    tab.setAttribute('aria-label', M.signed);
    tab.textContent = '';
    if (adopted.kind === 'typed') {
      var span = document.createElement('span');
      span.className = 'script';
      span.textContent = tab.classList.contains('initials') ? adopted.text.split(' ').map(function (w) { return w.charAt(0); }).join('').toUpperCase() : adopted.text;
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
      if (!text) { error.textContent = M.typeName; return; }
      adopted = { kind: 'typed', text: text };
      finishForm.elements.signatureKind.value = 'typed';
      finishForm.elements.signatureText.value = text;
    } else {
      if (!drawn) { error.textContent = M.drawFirst; return; }
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
  finishForm.addEventListener('submit', function () {
    // Every value-taking tab's value; the server applies only what changed, and judges again.
    var posted = {};
    entries.forEach(function (e) { if (e.rule.takesValue) posted[e.id] = e.get(); });
    finishForm.elements.tabValues.value = JSON.stringify(posted);
    finishForm.elements.attachments.value = JSON.stringify(attached);
    finishButton.disabled = true;
    approveButtons.forEach(function (b) { b.disabled = true; });
  });
  showMode();
  update();
})();
`;

/**
 * The signing page's tab rules, as plain browser JavaScript (the page has no build step). Each
 * function mirrors one server rule over a TabRule (signing/tab-rule.ts). Its messages are the
 * rule's own (`rule.messages`, in the recipient's language; in English the server's words, so
 * what the page shows is what Finish would answer):
 *   problem      ↔ findTabProblems for one tab (domain/tabs/values/find-tab-problems.ts and
 *                  each kind's findValueProblem: text formats, numbers, lists, radios)
 *   parseNumber  ↔ parseLocaleNumber (readNumber ↔ readLocaleNumber); parseDate ↔ parseDateValue
 *   kept         ↔ keptNumberValue (formatMoney ↔ format-money.ts: a Currency tab's amounts)
 *   shown        ↔ shownTabs (conditions settled to a fixed point)
 *   formulas     ↔ computeFormulaValues (evaluateFormula, formatFormulaValue)
 * test: tab-rules-script.test.ts runs this text against the server's functions on the same cases.
 * It defines one global, SignetTabRules, which signing-script.ts uses.
 */
export const TAB_RULES_SCRIPT = String.raw`
var SignetTabRules = (function () {
  'use strict';
  var EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;
  var TEXTUAL = { text: 1, company: 1, title: 1, date: 1, email: 1, zip: 1, ssn: 1 };

  function escapeRe(s) { return s.replace(/[.*+?^\${}()|[\]\\]/g, '\\$&').replace(/ /g, '[ \\u00a0\\u202f]'); }

  function numberOf(negative, integer, decimals) {
    if (integer === undefined && decimals === undefined) return undefined;
    var n = Number((negative ? '-' : '') + (integer || '0').replace(/\D/g, '') + '.' + (decimals || '0'));
    return isFinite(n) ? { value: n, decimals: decimals ? decimals.length : 0 } : undefined;
  }

  /** { value, decimals } or undefined; money: a Currency tab's rule.money, read in its layouts too. */
  function readNumber(text, decimal, group, money) {
    var t = text.trim().replace(/\u00a0|\u202f/g, ' ');
    var digits = '(\\d{1,3}(?:' + escapeRe(group === '\u00a0' || group === '\u202f' ? ' ' : group) + '\\d{3})+|\\d+)?(?:' + escapeRe(decimal) + '(\\d+))?';
    var m = new RegExp('^([-+])?' + digits + '$').exec(t);
    if (m) return numberOf(m[1] === '-', m[2], m[3]);
    if (!money) return undefined;
    var bodies = [t, t.replace(new RegExp(' ?' + money.code + '$', 'i'), '')];
    var layouts = [[money.positive, false], [money.negative, true], [['minus'].concat(money.positive), true]];
    for (var b = 0; b < bodies.length; b++) {
      for (var l = 0; l < layouts.length; l++) {
        var shape = layouts[l][0].filter(function (p) { return p !== ' '; }).map(function (p) {
          return p === 'amount' ? digits : p === 'symbol' ? escapeRe(money.symbol) : p === 'minus' ? '-' : escapeRe(p);
        }).join(' ?');
        var hit = new RegExp('^' + shape + '$').exec(bodies[b]);
        if (hit) return numberOf(layouts[l][1], hit[1], hit[2]);
      }
    }
    return undefined;
  }

  function parseNumber(text, decimal, group, money) {
    var r = readNumber(text, decimal, group, money);
    return r === undefined ? undefined : r.value;
  }

  /** An amount as a tab with money writes it (two decimals, grouped, its layout, its code when long). */
  function formatMoney(n, decimal, group, money) {
    var fixed = Math.abs(n).toLocaleString('en-US', { useGrouping: false, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    var parts = fixed.split('.');
    var g = group === '\u00a0' || group === '\u202f' ? ' ' : group;
    var amount = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, g) + decimal + parts[1];
    var pieces = n < 0 && /[1-9]/.test(fixed) ? money.negative : money.positive;
    var text = pieces.map(function (p) { return p === 'amount' ? amount : p === 'symbol' ? money.symbol : p === 'minus' ? '-' : p; }).join('');
    return money.long ? text + ' ' + money.code : text;
  }

  /** The value a number tab keeps: a tab with money its amount as it writes it; else the value as typed. */
  function kept(rule, value) {
    if (!rule.money) return value;
    var r = readNumber(value, rule.decimal, rule.group, rule.money);
    return r === undefined || r.decimals > 2 ? value : formatMoney(r.value, rule.decimal, rule.group, rule.money);
  }

  function parseDate(text) {
    var t = text.trim();
    var iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
    var us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
    var p = iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : us ? [Number(us[3]), Number(us[1]), Number(us[2])] : null;
    if (!p) return undefined;
    var d = new Date(Date.UTC(p[0], p[1] - 1, p[2]));
    if (p[0] < 1 || d.getUTCFullYear() !== p[0] || d.getUTCMonth() !== p[1] - 1 || d.getUTCDate() !== p[2]) return undefined;
    return { year: p[0], month: p[1], day: p[2] };
  }

  function entryProblem(rule, value) {
    if (value.length > rule.maxLength) return rule.messages.tooLong;
    if (rule.pattern !== undefined && !new RegExp(rule.pattern).test(value)) return rule.messages.pattern;
    return undefined;
  }

  function formatProblem(rule, value) {
    switch (rule.type) {
      case 'date': return parseDate(value) ? undefined : rule.messages.format;
      case 'email': return value.length <= 254 && EMAIL.test(value) ? undefined : rule.messages.format;
      case 'zip':
        if (rule.useDash4) return /^\d{5}(-\d{4})?$/.test(value) ? undefined : rule.messages.format;
        return /^\d{5}(\d{4})?$/.test(value) ? undefined : rule.messages.format;
      case 'ssn': return /^\d{3}-?\d{2}-?\d{4}$/.test(value) ? undefined : rule.messages.format;
      default: return undefined;
    }
  }

  function numberProblem(rule, value) {
    if (kept(rule, value).length > rule.maxLength) return rule.messages.tooLong;
    var r = readNumber(value, rule.decimal, rule.group, rule.money);
    if (r === undefined) return rule.messages.number;
    if (rule.min !== undefined && r.value < rule.min) return rule.messages.min;
    if (rule.max !== undefined && r.value > rule.max) return rule.messages.max;
    if (rule.currency && r.decimals > 2) return rule.messages.currency;
    return rule.pattern !== undefined ? entryProblem(rule, value) : undefined;
  }

  /** The message that stops the signer from finishing with this value, or '' when there is none. */
  function problem(rule, raw) {
    if (!rule.takesValue) return '';
    var value = String(raw).trim();
    if (value === '' || (rule.type === 'checkbox' && value.toLowerCase() === 'false')) {
      if (!rule.required) return '';
      return rule.messages.required;
    }
    var why;
    if (TEXTUAL[rule.type]) why = value.length > rule.maxLength ? rule.messages.tooLong : (formatProblem(rule, value) || entryProblem(rule, value));
    else if (rule.type === 'number' || rule.type === 'numerical') why = numberProblem(rule, value);
    else if (rule.type === 'checkbox') why = /^(true|false)$/i.test(value) ? undefined : rule.messages.choice;
    else if (rule.type === 'list' || rule.type === 'radioGroup') why = rule.choices.indexOf(value) >= 0 ? undefined : rule.messages.choice;
    return why || '';
  }

  function conditionValue(rule, value) { return rule.type === 'checkbox' ? (value === 'true' ? 'on' : 'off') : value; }

  /** Which tabs are shown, for rules and values in the same order. */
  function shown(rules, values) {
    var on = rules.map(function (r) { return r.cond === undefined; });
    for (var changed = true; changed;) {
      changed = false;
      rules.forEach(function (r, i) {
        if (on[i] || !r.cond) return;
        var hit = rules.some(function (p, j) { return on[j] && p.label === r.cond.label && conditionValue(p, values[j] || '').toLowerCase() === r.cond.value.toLowerCase(); });
        if (hit) { on[i] = true; changed = true; }
      });
    }
    return on;
  }

  function evaluate(node, valueOf) {
    switch (node.kind) {
      case 'number': return node.value;
      case 'ref': var v = valueOf(node.label); return v === undefined ? 0 : v;
      case 'negate': return -evaluate(node.operand, valueOf);
      default:
        var a = evaluate(node.left, valueOf), b = evaluate(node.right, valueOf);
        return node.op === '+' ? a + b : node.op === '-' ? a - b : node.op === '*' ? a * b : a / b;
    }
  }

  function formatValue(value, round) {
    if (value === undefined) return '';
    var places = round === undefined ? 10 : round;
    var factor = Math.pow(10, places);
    var rounded = Math.round(value * factor) / factor;
    var text = round === undefined ? String(Number(rounded.toFixed(places))) : rounded.toFixed(places);
    return text === '-0' ? '0' : text.replace(/^-(0(\.0+)?)$/, '$1');
  }

  /** The values with every formula computed, readers after what they read. */
  function formulas(rules, values) {
    var out = values.slice();
    var list = [];
    rules.forEach(function (r, i) { if (r.type === 'formula' && r.order !== undefined) list.push(i); });
    list.sort(function (a, b) { return rules[a].order - rules[b].order; });
    function numberOf(label) {
      for (var i = 0; i < rules.length; i++) {
        var r = rules[i];
        if (r.label !== label || (out[i] || '') === '') continue;
        if (r.type === 'checkbox') return out[i] === 'true' ? 1 : 0;
        return r.type === 'number' || r.type === 'numerical' ? parseNumber(out[i], r.decimal, r.group, r.money) : parseNumber(out[i], '.', ',');
      }
      return undefined;
    }
    list.forEach(function (i) {
      var result = evaluate(rules[i].formula, numberOf);
      out[i] = formatValue(isFinite(result) ? result : undefined, rules[i].round);
    });
    return out;
  }

  return { problem: problem, shown: shown, formulas: formulas, kept: kept, parseNumber: parseNumber, parseDate: parseDate };
})();
`;

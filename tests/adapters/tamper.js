#!/usr/bin/env node
// An adapter that relays to `autoreview serve` and tampers with the reference's outcome in one
// region of the input space, so the generated checks can be shown to find and shrink each kind of
// defect: node tamper.js <serve-binary> <mode>
//   safety    a final denial whose body runs anyway
//   decision  a question for the user turned into a denial
//   order     the later listeners reported after the approval request
//   text      "rejected" worded "declined" in the user-rejected text
//   info      a quota failure classed as a provider failure
//   rare      only under the effective policy never, a caller cancelling during the review and a
//             reviewer denial with a reason: the model's text gains a suffix
//   ask-not-deny  a reviewer's final denial (under the policy never) turned into a question for
//             the user: the body runs when the user allows once, so this can run a body
//   extract-allow  a reader that extracts an allow object from the words around it (the reply
//             is cut down to the allow before the reference reads it), as AR-TOL-10 forbids
//   forget-count  a gate that keeps its failure count per call instead of per session: in a
//             session, each call counts from the count the session started with, so the count
//             and the hint never build up across calls (AR-SESSION-3)
// It speaks whatever protocol `autoreview serve` answers, and tampers with each call of a session
// outcome as with a single call's.
'use strict';
const { spawn } = require('node:child_process');
const readline = require('node:readline');

const [serveBin, mode] = process.argv.slice(2);
const serve = spawn(serveBin, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
const replies = readline.createInterface({ input: serve.stdout });
const pending = [];
replies.on('line', (line) => { const next = pending.shift(); if (next) next(line); });
const ask = (msg) => new Promise((resolve) => { pending.push(resolve); serve.stdin.write(JSON.stringify(msg) + '\n'); });

const effectiveNever = (s) => {
  const p = s.policy;
  if (p === undefined) return false;
  if (typeof p === 'string') return p === 'never';
  return (p.override ?? p.default ?? 'ask') === 'never';
};
const firstText = (s) => {
  const r = Array.isArray(s.reviewer) ? s.reviewer[0] : s.reviewer;
  return (r && typeof r.text === 'string') ? r.text : '';
};

function tamper(s, o) {
  switch (mode) {
    case 'safety':
      if (o.listener && o.listener.kind === 'deny' && !o.result.executed) {
        o.result = { executed: true, text: null, info: null };
        o.trace.push('body');
      }
      break;
    case 'decision':
      if (o.listener && o.listener.kind === 'ask') o.listener = { kind: 'deny', reason: o.listener.reason || 'denied' };
      break;
    case 'order': {
      const d = o.trace.indexOf('downstream');
      const a = o.trace.indexOf('approval');
      if (d >= 0 && a >= 0) { o.trace[d] = 'approval'; o.trace[a] = 'downstream'; }
      break;
    }
    case 'text':
      if (typeof o.result.text === 'string') o.result.text = o.result.text.replace('the user rejected', 'the user declined');
      break;
    case 'info':
      if (o.review.failure && o.review.failure.class === 'quota') o.review.failure.class = 'provider';
      break;
    case 'rare':
      if (effectiveNever(s) && s.abort === 'caller-during-review'
          && /"decision":"deny"/.test(firstText(s)) && /"reason"/.test(firstText(s))
          && typeof o.result.text === 'string') {
        o.result.text += ' (tampered)';
      }
      break;
    case 'ask-not-deny':
      if (o.listener && o.listener.kind === 'deny' && o.listener.info
          && o.listener.info.name === 'AutoReviewDeniedError') {
        const answer = s.approval || 'unavailable';
        o.listener = { kind: 'ask', reason: o.listener.reason };
        o.approval = { reason: o.listener.reason, answer, prompted: true };
        if (answer === 'allowed-once') {
          o.result = { executed: true, text: null, info: null };
          o.trace = [...o.trace, 'approval', 'body'];
        } else {
          o.trace = [...o.trace, 'approval'];
        }
      }
      break;
    default: break;
  }
  return o;
}

// An allow object with no brace inside, wherever it stands in a reply's text.
const ALLOW = /\{[^{}]*"decision"\s*:\s*"allow"[^{}]*\}/;

/** The scenario as a gate that extracts allows from prose would read it. */
function extractAllows(s) {
  if (Array.isArray(s.calls)) return { ...s, calls: s.calls.map((c) => ('event' in c ? c : extractAllows(c))) };
  const cut = (a) => {
    const m = (a && typeof a.text === 'string') ? ALLOW.exec(a.text) : null;
    return m ? { ...a, text: m[0] } : a;
  };
  return { ...s, reviewer: Array.isArray(s.reviewer) ? s.reviewer.map(cut) : cut(s.reviewer) };
}

/**
 * `tamper` applied to each call's outcome: a single call's, or each call of a session's, with its
 * scenario (the session's members added to the call's).
 */
function tamperEach(s, o) {
  if (!Array.isArray(o.calls)) return tamper(s, o);
  if (mode === 'forget-count') return forgetCount(s, o);
  const { calls, id: _id, ...head } = s;
  return { ...o, calls: o.calls.map((c, i) => ('event' in c ? c : tamper({ ...head, ...calls[i] }, c))) };
}

/** Each call of a session as a gate that counts from the session's starting count every time. */
function forgetCount(s, o) {
  const start = (s.session && s.session.consecutive_failures) || 0;
  const threshold = (s.config && s.config.failure_hint_after) || 3;
  let before = start;
  const calls = o.calls.map((c) => {
    if ('event' in c || c.review.consecutive_failures === null) return c;
    const after = c.review.consecutive_failures;
    const counted = after === before + 1;
    const fresh = counted ? start + 1 : (after === 0 && before !== 0 ? 0 : start);
    before = after;
    if (fresh === after) return c;
    const json = JSON.stringify({ ...c, review: { ...c.review, consecutive_failures: fresh } });
    const rewritten = fresh >= threshold && counted
      ? json.replace(/failed \d+ times in a row/g, `failed ${fresh} times in a row`).replace(/连续失败 \d+ 次/g, `连续失败 ${fresh} 次`)
      : json.replace(/\\nAuto review has failed [^"]*|\\nAuto review 已在路由 [^"]*/g, '');
    return JSON.parse(rewritten);
  });
  return { ...o, calls };
}

const input = readline.createInterface({ input: process.stdin });
input.on('line', async (line) => {
  const msg = JSON.parse(line);
  if (msg.type === 'stop') { serve.kill(); process.exit(0); }
  if (mode === 'extract-allow' && msg.scenario) msg.scenario = extractAllows(msg.scenario);
  const reply = JSON.parse(await ask(msg));
  if (msg.type === 'hello') reply.implementation.name = `tamper-${mode}`;
  if (reply.type === 'outcome') reply.outcome = tamperEach(msg.scenario, reply.outcome);
  process.stdout.write(JSON.stringify(reply) + '\n');
});

#!/usr/bin/env node
// An adapter for a gate that words its messages in its own way: it relays to the example gate
// (adapters/node/skeleton.js) and writes each ": " of its outcomes' texts as a full-width colon and
// an ideographic space (U+3000), as Chinese text writes them:
//   node reworded.js
// "… was not executed: auto-review: reviewer ended with …" becomes "… was not executed：\u3000
// auto-review：\u3000reviewer ended with …". The decisions are the example gate's, so every reworded
// text is a TEXT difference from the reference, and the context a report keeps beside each one
// holds whatever the drawn scenario put in the text (tool names, reasons, reviewer messages).
//   node reworded.js --own-words
// also ends every such text with " (in its own words)", adds a member to every info object and
// rewords every failure message: a gate that decides as the reference does and says everything
// its own way, whose differences are all TEXT and INFO.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');

const skeleton = path.join(__dirname, '..', '..', 'adapters', 'node', 'skeleton.js');
const gate = spawn(process.execPath, [skeleton], { stdio: ['pipe', 'pipe', 'inherit'] });
const replies = readline.createInterface({ input: gate.stdout });
const pending = [];
replies.on('line', (line) => { const next = pending.shift(); if (next) next(line); });
const ask = (msg) => new Promise((resolve) => { pending.push(resolve); gate.stdin.write(JSON.stringify(msg) + '\n'); });

const ownWords = process.argv.includes('--own-words');
const reword = (s) =>
  typeof s === 'string' ? s.replace(/: /g, '\uff1a\u3000') + (ownWords ? ' (in its own words)' : '') : s;
const ownInfo = (info) => (ownWords && info ? { ...info, own: true } : info);

/** A call's outcome with each text a model or a person sees reworded. */
function rewordCall(o) {
  if (o.listener) {
    o.listener.reason = reword(o.listener.reason);
    if (o.listener.display_reason) {
      o.listener.display_reason.en = reword(o.listener.display_reason.en);
      o.listener.display_reason.zh = reword(o.listener.display_reason.zh);
    }
  }
  if (o.approval) {
    o.approval.reason = reword(o.approval.reason);
    if (o.approval.display_reason) {
      o.approval.display_reason.en = reword(o.approval.display_reason.en);
      o.approval.display_reason.zh = reword(o.approval.display_reason.zh);
    }
  }
  if (o.result) o.result.text = reword(o.result.text);
  if (o.listener && o.listener.info) o.listener.info = ownInfo(o.listener.info);
  if (o.result && o.result.info) o.result.info = ownInfo(o.result.info);
  if (ownWords && o.review && o.review.failure) o.review.failure.message = reword(o.review.failure.message);
  return o;
}

const input = readline.createInterface({ input: process.stdin });
input.on('line', async (line) => {
  const msg = JSON.parse(line);
  if (msg.type === 'stop') { gate.kill(); process.exit(0); }
  const reply = JSON.parse(await ask(msg));
  if (msg.type === 'hello' && reply.implementation) reply.implementation.name = 'example-gate-reworded';
  if (reply.type === 'outcome') {
    const o = reply.outcome;
    reply.outcome = Array.isArray(o.calls)
      ? { ...o, calls: o.calls.map((c) => ('event' in c ? c : rewordCall(c))) }
      : rewordCall(o);
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
});

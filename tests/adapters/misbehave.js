#!/usr/bin/env node
// An adapter that relays to `autoreview serve` and misbehaves on cue, so the runner's handling of
// broken implementations can be tested: node misbehave.js <serve-binary> <mode> [n]
//   crash N        exit with status 3 on the Nth decide
//   stall N        never answer the Nth decide
//   garbage N      answer the Nth decide with a line that is not JSON
//   wrong-seq N    answer the Nth decide with another seq
//   huge N         answer the Nth decide with a 2 MiB line
//   error N        answer the Nth decide with an error reply
//   stderr N       write three lines to stderr on the Nth decide, then crash
//   twice N        answer the Nth decide twice
//   deaf           after the handshake, never read stdin again (a long request then blocks)
//   hang           read every decide and never answer one
//   slow MS        wait MS ms for each MiB of a decide's line before answering (a gate whose time
//                  grows with the reviewer text it reads)
//   allow-all      answer every decide with an outcome whose body ran (a planted SAFETY defect)
//   lone-surrogate answer every decide correctly, but write each U+FFFD as a lone surrogate, as
//                  JSON.stringify writes one that JSON.parse read from a reviewer (`\ud800`)
//   version        answer hello with a protocol one above the runner's, which it cannot speak
//   protocol-1     speak protocol 1 as an adapter written before protocol 2 does: a hello with
//                  protocol 1 and no `observes`, outcomes without `review.requests`
//   no-requests    claim every observable (as serve does) but leave `review.requests` out of
//                  every call's outcome
//   observes-unknown  answer hello observing "sessions" and "telepathy"
//   observes-v1    answer hello with protocol 1 and an `observes` list
//   lacks          declare that its framework lacks deny-reason, ask-reason and abort-signal, and
//                  answer as such a framework would: a denial's reason replaced by a generic one,
//                  an approval request without its reasons, an error reply for a caller's abort
//                  (so a case sent that needs one of them fails)
//   bare           observe nothing (protocol 2, `observes: []`) and lack every capability, and
//                  answer as `lacks` does, without `review.requests`: the least a gate can be
//                  asked (what its run covers, `--require-coverage`)
//   lacks-unknown  answer hello lacking "deny-reason" and "telepathy"
//   canonical      ask for canonical scenarios, which serve decides as it decides any
//   canonical-v1   answer hello with protocol 1, no `observes`, and `canonical`
//   lacks-v1       answer hello with protocol 1 and a `lacks` list
//   features-unknown  answer hello with the features "failure-hint" and "telepathy"
//   features-v1    answer hello with protocol 1 and a `features` list
//   shifty PATH    crash on the first decide, leaving a file at PATH; a hello while PATH exists
//                  observes nothing and lacks deny-reason (an adapter whose hello changes on restart)
//   no-profile     answer hello without the run's profile
//   silent         never answer hello
//   exit           exit before reading anything
'use strict';
const { spawn } = require('node:child_process');
const readline = require('node:readline');

const [serveBin, mode, nArg] = process.argv.slice(2);
const n = Number(nArg || 1);
if (mode === 'exit') process.exit(0);

const serve = spawn(serveBin, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
const replies = readline.createInterface({ input: serve.stdout });
const pending = [];
replies.on('line', (line) => {
  const next = pending.shift();
  if (next) next(line);
});
const ask = (msg) => new Promise((resolve) => {
  pending.push(resolve);
  serve.stdin.write(JSON.stringify(msg) + '\n');
});
const out = (obj) => process.stdout.write((typeof obj === 'string' ? obj : JSON.stringify(obj)) + '\n');

let decides = 0;
const input = readline.createInterface({ input: process.stdin });
input.on('line', async (line) => {
  const msg = JSON.parse(line);
  if (msg.type === 'stop') { serve.kill(); process.exit(0); }
  if (msg.type === 'hello') {
    if (mode === 'silent') return;
    const reply = JSON.parse(await ask(msg));
    if (mode === 'version') reply.protocol = msg.protocol + 1;
    if (mode === 'protocol-1') { reply.protocol = 1; delete reply.observes; }
    if (mode === 'observes-unknown') reply.observes = ['sessions', 'telepathy'];
    if (mode === 'observes-v1') reply.protocol = 1;
    if (mode === 'shifty' && require('node:fs').existsSync(nArg)) { reply.observes = []; reply.lacks = ['deny-reason']; }
    if (mode === 'lacks' || mode === 'bare') reply.lacks = ['deny-reason', 'ask-reason', 'abort-signal'];
    if (mode === 'bare') reply.observes = [];
    if (mode === 'lacks-unknown') reply.lacks = ['deny-reason', 'telepathy'];
    if (mode === 'lacks-v1') { reply.protocol = 1; delete reply.observes; reply.lacks = ['deny-reason']; }
    if (mode === 'features-unknown') reply.features = ['failure-hint', 'telepathy'];
    if (mode === 'features-v1') { reply.protocol = 1; delete reply.observes; reply.features = []; }
    if (mode === 'canonical') reply.canonical = true;
    if (mode === 'canonical-v1') { reply.protocol = 1; delete reply.observes; reply.canonical = true; }
    if (mode === 'no-profile') reply.profiles = reply.profiles.filter((p) => p !== msg.profile);
    reply.implementation.name = `misbehave-${mode}`;
    out(reply);
    if (mode === 'deaf') { input.close(); process.stdin.pause(); }
    return;
  }
  decides += 1;
  if (mode === 'hang') return;
  if (mode === 'slow') await new Promise((r) => setTimeout(r, (n * Buffer.byteLength(line)) / 2 ** 20));
  if (mode === 'shifty') { require('node:fs').writeFileSync(nArg, 'restarted'); process.exit(3); }
  if (decides === n) {
    switch (mode) {
      case 'crash': process.exit(3);
      case 'stall': return;
      case 'garbage': return out('this is not JSON');
      case 'twice': { const r = await ask(msg); out(r); return out(r); }
      case 'wrong-seq': { const r = JSON.parse(await ask(msg)); r.seq += 1000; return out(r); }
      case 'huge': return out({ type: 'error', seq: msg.seq, message: 'x'.repeat(2 * 1024 * 1024) });
      case 'error': return out({ type: 'error', seq: msg.seq, message: 'the gate threw: TypeError: cannot read properties of undefined' });
      case 'stderr':
        process.stderr.write('gate: starting review\ngate: reviewer client failed\ngate: giving up\n');
        setTimeout(() => process.exit(4), 20);
        return;
      default: break;
    }
  }
  if (mode === 'lacks' || mode === 'bare') {
    const calls = msg.scenario.calls ?? [msg.scenario];
    if (calls.some((c) => String(c.abort ?? '').startsWith('caller-'))) {
      return out({ type: 'error', seq: msg.seq, message: 'this framework gives the gate no abort signal' });
    }
  }
  const reply = JSON.parse(await ask(msg));
  if ((mode === 'lacks' || mode === 'bare') && reply.type === 'outcome') {
    for (const call of reply.outcome.calls ?? [reply.outcome]) {
      const l = call.listener;
      if (l && l.kind === 'deny') l.reason = 'denied by the gate';
      if (l && l.kind === 'ask') { delete l.reason; delete l.display_reason; }
    }
  }
  if ((mode === 'protocol-1' || mode === 'no-requests' || mode === 'bare') && reply.type === 'outcome') {
    for (const call of reply.outcome.calls ?? [reply.outcome]) {
      if (call.review) delete call.review.requests;
    }
  }
  if (mode === 'allow-all' && reply.type === 'outcome') {
    const ran = (o) => ('event' in o ? o : { ...o, result: { executed: true, text: null, info: null } });
    reply.outcome = Array.isArray(reply.outcome.calls) ? { ...reply.outcome, calls: reply.outcome.calls.map(ran) } : ran(reply.outcome);
  }
  if (mode === 'lone-surrogate') {
    return out(JSON.stringify(reply, (_key, value) => (typeof value === 'string' ? value.replaceAll('\ufffd', '\ud800') : value)));
  }
  out(reply);
});

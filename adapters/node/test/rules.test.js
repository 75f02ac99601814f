'use strict';
// The example gate decides by rule, each rule on its own: the fixture's lines (spec/fixtures/
// replay.jsonl) decided under their profile's rules with one rule changed differ from the reference
// outcome exactly where that rule says, and nowhere else. No profile has these recombinations; a
// gate that chose its behaviour by the profile's name could not follow them.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runInput } = require('../harness.js');
const { each } = require('./comparable.js');
const { install, rules: offered } = require('../example-gate.js');

const FIXTURE = path.join(__dirname, '..', '..', '..', 'spec', 'fixtures', 'replay.jsonl');
const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

/** Each call outcome of an input outcome, with the reference's beside it. */
function* callPairs(got, want) {
  if (!Array.isArray(want.calls)) {
    yield [got, want];
    return;
  }
  for (let i = 0; i < want.calls.length; i++) if (!('event' in want.calls[i])) yield [got.calls[i], want.calls[i]];
}

/** Every line whose rule `rule` has the value `from`, decided with `to` instead. */
async function recombined(rule, from, to) {
  const out = [];
  for (const line of lines) {
    if (line.rules[rule] !== from) continue;
    const rules = { ...line.rules, [rule]: to };
    const got = await runInput(line.scenario, install, { rules, reply: line.reply, world: line.world, log: () => {} });
    out.push({ line, got });
  }
  assert.ok(out.length > 100, `${out.length} lines with ${rule} ${from}`);
  return out;
}

test('the example gate lists every value of every rule the fixture uses', () => {
  for (const line of lines) {
    for (const [rule, value] of Object.entries(line.rules)) {
      if (rule === 'config') continue;
      assert.ok(offered[rule]?.includes(value), `${line.case}: ${rule} ${JSON.stringify(value)}`);
    }
  }
});

test('session_id_in_requests alone puts the session id in each request', async () => {
  for (const [from, to] of [
    [false, true],
    [true, false],
  ]) {
    for (const { line, got } of await recombined('session_id_in_requests', from, to)) {
      const want = structuredClone(line.outcome);
      for (const [, call] of callPairs(want, want)) {
        for (const request of call.review.requests ?? []) request.session_id = to ? line.scenario.session.id : null;
      }
      // Texts the reference marks prefix_only are implementation-defined past the prefix.
      const cut = (o) => JSON.parse(JSON.stringify(o, (k, v) => (k === 'prefix_only' ? undefined : v)));
      for (const [g, w] of callPairs(got, want)) assert.deepEqual(cut(g.review.requests), cut(w.review.requests), `${line.case}`);
      for (const [g, w] of callPairs(got, want)) assert.deepEqual(g.listener?.kind, w.listener?.kind, `${line.case}`);
    }
  }
});

test('counts_failures alone makes the session count failures in a row', async () => {
  for (const { line, got } of await recombined('counts_failures', false, true)) {
    for (const [g, w] of callPairs(got, line.outcome)) {
      assert.equal(w.review.consecutive_failures, null, line.case);
      assert.ok(Number.isInteger(g.review.consecutive_failures), `${line.case}: ${g.review.consecutive_failures}`);
      // A review that obtained a decision sets it to 0 (one still pending changes nothing yet).
      if (g.listener !== null && g.review.attempts > 0 && g.review.failure === null) assert.equal(g.review.consecutive_failures, 0, line.case);
      // The count changes texts (the hint), never a decision (AR-RES-HINT-3).
      assert.deepEqual(g.listener?.kind, w.listener?.kind, line.case);
      assert.deepEqual(g.result.executed, w.result.executed, line.case);
    }
  }
  for (const { line, got } of await recombined('counts_failures', true, false)) {
    for (const [g] of callPairs(got, line.outcome)) assert.equal(g.review.consecutive_failures, null, line.case);
  }
});

test('route alone chooses between the configured route and the session route', async () => {
  for (const { line, got } of await recombined('route', 'configured-first', 'session')) {
    for (const [g, w] of callPairs(got, line.outcome)) {
      // The configured reviewer route is not used: every request goes to the session's route.
      const session = line.scenario.session.route;
      if (g.review.routes.length > 0) assert.ok(g.review.routes.every((r) => r === `${session.provider}/${session.model}`), line.case);
      if (line.scenario.config.reviewer_route === null) assert.deepEqual(g.review.routes, w.review.routes, line.case);
    }
  }
});


/** Whether a line states a sandbox or changes its backend: only there can the rule `confinement` tell. */
const touchesSandbox = (line) => 'sandbox' in line.scenario.session || line.scenario.calls.some((item) => item.event === 'backend');

test('confinement alone changes only what a sandbox is stated for, and never widens or narrows against its value', async () => {
  let unchanged = 0;
  let touched = 0;
  for (const line of lines) {
    const to = !line.rules.confinement;
    const rules = { ...line.rules, confinement: to };
    const got = await runInput(line.scenario, install, { rules, reply: line.reply, world: line.world, log: () => {} });
    if (!touchesSandbox(line)) {
      // The default sandbox is never narrowed, by any profile: the line decides as the reference.
      assert.deepEqual(each(got, line.outcome), each(line.outcome, line.outcome), `${line.case} confinement ${to}`);
      unchanged += 1;
      continue;
    }
    touched += 1;
    const stated = line.scenario.session.sandbox;
    const rejection = stated && typeof stated.narrowing === 'object' ? `Error: ${stated.narrowing.rejected}` : null;
    for (const [g] of callPairs(got, line.outcome)) {
      const { before, after } = g.sandbox ?? { before: 'danger-full-access', after: 'danger-full-access' };
      if (to) {
        // AR-CONFINE-2: a call never leaves its session wider than it found it.
        if (before === 'workspace-write') assert.equal(after, 'workspace-write', line.case);
      } else {
        // Without the rule the gate changes no mode (disposal writes Full access's), and so never
        // meets a rejection.
        if (before === 'danger-full-access') assert.equal(after, 'danger-full-access', line.case);
        if (rejection !== null) assert.notEqual(g.result.text, rejection, line.case);
      }
    }
  }
  assert.ok(unchanged > lines.length / 2, `${unchanged} of ${lines.length} lines unchanged, ${touched} touch the sandbox`);
});

'use strict';
// Confinement (AR-CONFINE-1..4, the rule `confinement`, the observable `confinement`): the world's
// sandbox policy, the outcome's `sandbox`, the tool runtime's materialization of a throw out of the
// pre-execute listener, and the example gate under both values of the rule, in single calls and in
// sessions with disposal, selections of Auto and `backend` events. Scenarios are canonical ones of
// the engine's fixture (spec/fixtures/replay.jsonl) with their sandbox and items changed.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runInput, runScenario, OBSERVABLES } = require('../harness.js');
const { install, rules: offered, observes } = require('../example-gate.js');

const FIXTURE = path.join(__dirname, '..', '..', '..', 'spec', 'fixtures', 'replay.jsonl');
const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

const FULL = 'danger-full-access';
const CONFINED = 'workspace-write';
const FENCE = 'cannot change sandbox mode while persistent terminal sessions are open';

/** A baseline call line that an allowing reviewer and downstream run: the base of every scenario here. */
const base = lines.find(
  (l) => l.profile === 'baseline' && l.reply === 'call' && !('sandbox' in l.scenario.session) && l.outcome.result.executed && l.outcome.trace.join() === 'review,downstream,body' && l.scenario.calls[0].abort === 'none' && l.scenario.policy.override === null,
);
const rulesOf = (profile, confinement) => ({ ...lines.find((l) => l.profile === profile).rules, confinement });

/** The base scenario's call, with `change` applied. */
function callOf(change = {}) {
  const call = structuredClone(base.scenario.calls[0]);
  return { ...call, ...change };
}
const WORLD = () => structuredClone(base.world[0]);

/**
 * A canonical scenario of `items` (calls made with callOf, or events) in a session with `sandbox`
 * (null: the default, left out as the canonical form leaves it out).
 */
function scenario(items, { sandbox = null, preset = 'auto', policy } = {}) {
  const sc = structuredClone(base.scenario);
  if (sandbox !== null) sc.session.sandbox = { mode: FULL, confines_reads: false, narrowing: 'accepted', ...sandbox };
  sc.preset = preset;
  if (policy !== undefined) sc.policy = policy;
  sc.calls = items.map((item, i) => ('event' in item ? item : { ...item, id: `c${i}` }));
  return { scenario: sc, world: items.map((item) => ('event' in item ? null : WORLD())) };
}

/** Decide `items` under the rules of `profile` with the rule `confinement` set, observing everything. */
async function decide(items, options = {}, { profile = 'baseline', confinement = true, gate = install, observing = OBSERVABLES } = {}) {
  const { scenario: sc, world } = scenario(items, options);
  return runInput(sc, gate, { rules: rulesOf(profile, confinement), reply: 'session', world, observes: observing, log: () => {} });
}

test('the kit and the example gate offer confinement, and the gate lists both values of its rule', () => {
  assert.ok(OBSERVABLES.includes('confinement'));
  assert.ok(observes.includes('confinement'));
  assert.deepEqual([...offered.confinement], [false, true]);
});

for (const profile of ['baseline', 'resilient']) {
  test(`${profile}: a rejected narrowing fails the call with the rejection's own message, nothing run and the mode kept`, async () => {
    const sandbox = { confines_reads: true, narrowing: { rejected: FENCE } };
    const { calls } = await decide([callOf()], { sandbox }, { profile });
    const [o] = calls;
    assert.equal(o.settled, true);
    assert.equal(o.listener, null, 'the listener threw: it returned no decision');
    assert.equal(o.approval, null);
    assert.deepEqual(o.result, { executed: false, text: `Error: ${FENCE}`, info: null });
    assert.equal(o.review.attempts, 0, 'no reviewer request');
    assert.deepEqual(o.review.requests, []);
    assert.deepEqual(o.trace, [], 'no downstream, no body');
    assert.equal(o.sandbox, undefined, 'full access throughout (the mode it failed to leave): left out');
    assert.equal(o.prefix_only, undefined, 'the message is the scripted one, compared whole');
  });

  test(`${profile}: an accepted narrowing confines the session before the review, and the body runs under it`, async () => {
    const { calls } = await decide([callOf(), callOf()], { sandbox: { confines_reads: true } }, { profile });
    assert.deepEqual(calls[0].sandbox, { before: FULL, after: CONFINED });
    assert.deepEqual(calls[0].trace, ['review', 'downstream', 'body']);
    assert.deepEqual(calls[1].sandbox, { before: CONFINED, after: CONFINED }, 'the next call arrives confined');
  });

  test(`${profile}: the outer run_code call is narrowed before it passes through unreviewed`, async () => {
    const runCode = callOf({ tool: { name: 'run_code', call: 'run-code' } });
    const [o] = (await decide([runCode], { sandbox: { confines_reads: true } }, { profile })).calls;
    assert.deepEqual(o.sandbox, { before: FULL, after: CONFINED });
    assert.equal(o.review.attempts, 0);
    assert.deepEqual(o.trace, ['downstream', 'body']);
    const [rejected] = (await decide([runCode], { sandbox: { confines_reads: true, narrowing: { rejected: FENCE } } }, { profile })).calls;
    assert.deepEqual(rejected.result, { executed: false, text: `Error: ${FENCE}`, info: null });
    assert.deepEqual(rejected.trace, []);
  });

  test(`${profile}: without the rule, nothing is narrowed and a rejection is never met`, async () => {
    const sandbox = { confines_reads: true, narrowing: { rejected: FENCE } };
    const [o] = (await decide([callOf()], { sandbox }, { profile, confinement: false })).calls;
    assert.equal(o.result.executed, true);
    assert.equal(o.sandbox, undefined, 'full access throughout: left out');
  });
}

test('a session on a backend that confines no reads keeps full access; a confined one is never widened', async () => {
  const [kept] = (await decide([callOf()], { sandbox: { confines_reads: false } })).calls;
  assert.equal(kept.sandbox, undefined);
  const { calls } = await decide([callOf(), { event: 'backend', confines_reads: false }, callOf()], { sandbox: { mode: CONFINED, confines_reads: true } });
  assert.deepEqual(calls[0].sandbox, { before: CONFINED, after: CONFINED });
  assert.deepEqual(calls[1], { event: 'backend', error: null });
  assert.deepEqual(calls[2].sandbox, { before: CONFINED, after: CONFINED });
});

test('a backend event makes the next call narrowed', async () => {
  const { calls } = await decide([callOf(), { event: 'backend', confines_reads: true }, callOf()], { sandbox: {} });
  assert.equal(calls[0].sandbox, undefined);
  assert.deepEqual(calls[1], { event: 'backend', error: null });
  assert.deepEqual(calls[2].sandbox, { before: FULL, after: CONFINED });
});

test('a delegated child under never is narrowed, and its policy stays never', async () => {
  const policy = { override: 'never', default: 'ask' };
  const asks = callOf({ downstream: { kind: 'ask', reason: 'hook wants approval' }, approval: 'allowed-once' });
  const [o] = (await decide([asks], { sandbox: { confines_reads: true }, policy })).calls;
  assert.deepEqual(o.sandbox, { before: FULL, after: CONFINED });
  assert.deepEqual(o.approval && [o.approval.answer, o.approval.prompted], ['rejected', false]);
});

test('while the integration closes, nothing is narrowed', async () => {
  for (const profile of ['baseline', 'resilient']) {
    const closing = callOf({ abort: 'lifecycle-before-review' });
    const [o] = (await decide([closing], { sandbox: { confines_reads: true, narrowing: { rejected: FENCE } } }, { profile })).calls;
    assert.notEqual(o.result.text, `Error: ${FENCE}`, profile);
    assert.equal(o.sandbox, undefined, `${profile}: full access throughout`);
  }
});

test('disposal: with the rule, a confined session moves to Workspace Write keeping its mode and policy; without it, to Full access (never) and its mode', async () => {
  const asks = callOf({ downstream: { kind: 'ask', reason: 'hook' }, approval: 'allowed-once' });
  const items = [{ event: 'dispose' }, asks];
  const confined = (await decide(items, { sandbox: { mode: CONFINED } })).calls[1];
  assert.deepEqual(confined.sandbox, { before: CONFINED, after: CONFINED });
  assert.deepEqual([confined.approval.answer, confined.approval.prompted], ['allowed-once', true], 'Workspace Write asks');
  assert.equal(confined.result.executed, true);

  const full = (await decide(items, { sandbox: { mode: FULL, confines_reads: true } })).calls[1];
  assert.equal(full.sandbox, undefined);
  assert.deepEqual([full.approval.answer, full.approval.prompted], ['rejected', false], 'Full access meets never');

  // A delegated child pinned to never stays so (AR-CONFINE-5): downstream's ask is refused unprompted.
  const pinned = (await decide(items, { sandbox: { mode: CONFINED }, policy: { override: 'never', default: 'ask' } })).calls[1];
  assert.deepEqual(pinned.sandbox, { before: CONFINED, after: CONFINED });
  assert.deepEqual([pinned.approval.answer, pinned.approval.prompted], ['rejected', false]);

  const unconfined = (await decide(items, { sandbox: { mode: CONFINED } }, { confinement: false })).calls[1];
  assert.equal(unconfined.sandbox, undefined, 'Full access writes its mode');
  assert.deepEqual([unconfined.approval.answer, unconfined.approval.prompted], ['rejected', false]);
});

test('disposal during a call writes Full access\'s mode only without the rule', async () => {
  const during = callOf({ abort: 'lifecycle-after-review' });
  const without = (await decide([during], { sandbox: { mode: CONFINED } }, { confinement: false })).calls[0];
  assert.deepEqual(without.sandbox, { before: CONFINED, after: FULL });
  const kept = (await decide([during], { sandbox: { mode: CONFINED } })).calls[0];
  assert.deepEqual(kept.sandbox, { before: CONFINED, after: CONFINED });
  // A final denial never consults downstream, so the abort point is never reached: the disposal it
  // stands for runs at the call's end, and still belongs to the call (AR-SESSION-2).
  const denied = callOf({ reviewer: [{ text: '{"risk":"high","decision":"deny"}', delay_ms: 0 }], abort: 'lifecycle-during-downstream' });
  const policy = { override: 'never', default: 'ask' };
  const unreached = (await decide([denied], { sandbox: { mode: CONFINED }, policy }, { confinement: false })).calls[0];
  assert.deepEqual(unreached.trace, ['review']);
  assert.deepEqual(unreached.sandbox, { before: CONFINED, after: FULL });
});

test('a call without an agent has no session, so no sandbox, and changes no mode', async () => {
  const { calls } = await decide([callOf({ agent: false }), callOf()], { sandbox: { mode: CONFINED, confines_reads: true } });
  assert.equal(calls[0].sandbox, undefined);
  assert.deepEqual(calls[1].sandbox, { before: CONFINED, after: CONFINED });
  const narrowed = (await decide([callOf({ agent: false }), callOf()], { sandbox: { confines_reads: true } })).calls;
  assert.equal(narrowed[0].sandbox, undefined, 'nothing narrowed for a call without an agent');
  assert.deepEqual(narrowed[1].sandbox, { before: FULL, after: CONFINED });
});

test('selecting Auto writes the confined mode on a confining backend only under the rule', async () => {
  const items = [{ event: 'dispose' }, { event: 'install' }, { event: 'select-auto' }, callOf()];
  const sandbox = { confines_reads: true };
  const confined = (await decide(items, { sandbox })).calls;
  assert.deepEqual(confined[2], { event: 'select-auto', error: null });
  assert.deepEqual(confined[3].sandbox, { before: CONFINED, after: CONFINED });
  const full = (await decide(items, { sandbox }, { confinement: false })).calls;
  assert.equal(full[3].sandbox, undefined);
  const noConfiningBackend = (await decide(items, { sandbox: { mode: CONFINED } })).calls;
  assert.equal(noConfiningBackend[3].sandbox, undefined, 'the Auto preset writes Full access on a backend that confines no reads');
});

test('a run that does not observe confinement records no sandbox, and a throwing gate fails the decide as before', async () => {
  const without = OBSERVABLES.filter((o) => o !== 'confinement');
  const [o] = (await decide([callOf(), callOf({ abort: 'lifecycle-after-review' })], { sandbox: { mode: CONFINED } }, { confinement: false, observing: without })).calls;
  assert.equal(o.sandbox, undefined);
  const throwing = () => {
    throw new Error('a bug in the gate');
  };
  const { scenario: sc, world } = scenario([callOf()]);
  await assert.rejects(runScenario(sc, throwing, { rules: rulesOf('baseline', false), reply: 'call', world, observes: without, log: () => {} }), /the gate threw: Error: a bug in the gate/);
  const observed = await runScenario(sc, throwing, { rules: rulesOf('baseline', false), reply: 'call', world, log: () => {} });
  assert.deepEqual(observed.result, { executed: false, text: 'Error: a bug in the gate', info: null });
  assert.equal(observed.listener, null);
});

test('the world\'s sandbox policy: a change to the mode the session has meets nothing, a change throws the rejection verbatim', async () => {
  const seen = [];
  const probe = (host) => {
    const unregister = host.permissionPresets.registerAuto(() => {});
    return {
      listener(exec, next) {
        const s = exec.agent.session;
        seen.push([host.sandboxPolicy.modeOf(s), host.sandboxPolicy.confinesReads(s)]);
        host.sandboxPolicy.setSandboxMode(s, FULL); // no change: nothing rejects it
        assert.throws(() => host.sandboxPolicy.setSandboxMode(s, 'read-only'), TypeError);
        host.sandboxPolicy.setSandboxMode(s, CONFINED);
        return next();
      },
      dispose: async () => unregister(),
    };
  };
  const sandbox = { confines_reads: true, narrowing: { rejected: FENCE } };
  const [o] = (await decide([callOf()], { sandbox }, { gate: probe })).calls;
  assert.deepEqual(seen, [[FULL, true]]);
  assert.deepEqual(o.result, { executed: false, text: `Error: ${FENCE}`, info: null });
  assert.deepEqual(o.trace, []);
});

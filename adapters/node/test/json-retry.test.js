'use strict';
// Asking again after invalid JSON (AR-JSON-RETRY-1..3; the rule `asks_again` `json-retry`, the
// config member `max_json_retries`, the observable `json-retries`): the kit decodes and checks the
// member, and the example gate asks again only after a reply whose one text block `JSON.parse`
// refuses, with the reminder, within the budget, and never once a signal aborted the review.
// Scenarios are a canonical one of the engine's fixture (spec/fixtures/replay.jsonl) with its call
// changed, decided under the 0.2.x profile's rules.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runInput, OBSERVABLES } = require('../harness.js');
const { install, rules: offered, observes, MSG } = require('../example-gate.js');

const FIXTURE = path.join(__dirname, '..', '..', '..', 'spec', 'fixtures', 'replay.jsonl');
const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

const ALLOW = '{"risk":"low","decision":"allow"}';
const PROSE = 'I think this call is fine.';
const NOT_JSON = 'auto-review: reviewer output must be valid JSON';
const REMINDER =
  'Your previous response was not valid JSON. Review the same pending action under REVIEW_POLICY. Return exactly one JSON object ' +
  'matching its risk/decision rules. Do not include analysis, Markdown, or surrounding prose.';

/** The 0.2.x profile's rules (the contract's list), `change` applied. */
const RULES_02X = {
  reader: 'strict',
  failure_text: 'javascript',
  asks_again: 'json-retry',
  deadline: false,
  counts_failures: false,
  session_id_in_requests: false,
  route: 'session',
  schema: 'header',
  working_directory: 'deployment-fallback',
  failures: 'deny',
  preset_read: 'at-start',
  confinement: true,
  body_approvals: 'allowed-call',
  config: ['temperature', 'max_json_retries'],
};

/** A baseline call line that an allowing reviewer and downstream run: the base of every scenario here. */
const base = lines.find(
  (l) => l.profile === 'baseline' && l.reply === 'call' && !('sandbox' in l.scenario.session) && l.outcome.result.executed && l.outcome.trace.join() === 'review,downstream,body' && l.scenario.calls[0].abort === 'none' && l.scenario.policy.override === null && !('body' in l.scenario.calls[0]),
);

/** The base scenario with its call's reviewer attempts (texts, or attempts as written), `call` and `config` changed. */
function scenarioOf(reviewer, { call = {}, config = {} } = {}) {
  const sc = structuredClone(base.scenario);
  sc.config = { ...sc.config, ...config };
  const attempts = reviewer.map((a) => (typeof a === 'string' ? { text: a, delay_ms: 0 } : a));
  sc.calls = [{ ...sc.calls[0], id: 'c0', reviewer: attempts, ...call }];
  return sc;
}

/**
 * The example gate with a recorder of each reviewer request's system text and messages, as the
 * gate hands them to the reviewer client.
 */
function recording(seen) {
  return (host, restored) => {
    const integration = install(host, restored);
    return {
      ...integration,
      listener: (exec, next, env) =>
        integration.listener(exec, next, {
          ...env,
          llm: {
            request(options) {
              seen.push({ system: options.system, messages: options.messages, temperature: options.temperature, route: `${options.provider}/${options.model}` });
              return env.llm.request(options);
            },
          },
        }),
    };
  };
}

/** Decide `reviewer` (and the changes) under `rules`, observing everything; the call outcome and the requests seen. */
async function decide(reviewer, { rules = RULES_02X, ...changes } = {}) {
  const seen = [];
  const outcome = await runInput(scenarioOf(reviewer, changes), recording(seen), { rules, reply: 'call', world: structuredClone(base.world), observes: OBSERVABLES, log: () => {} });
  return { outcome, seen };
}

const failedReason = (name) => `Auto review of tool "${name}" failed; its body was not executed: ${NOT_JSON}`;

test('the kit and the example gate list the rule value and the observable', () => {
  assert.ok(OBSERVABLES.includes('json-retries'));
  assert.ok(observes.includes('json-retries'));
  assert.ok(offered.asks_again.includes('json-retry'));
  assert.equal(MSG.notJson, NOT_JSON);
  assert.equal(MSG.jsonRetryReminder, REMINDER);
});

test('a prose reply, then a valid one: allowed after two requests, the second a repair with the reminder', async () => {
  const { outcome, seen } = await decide([PROSE, ALLOW]);
  assert.deepEqual(outcome.listener, { kind: 'allow' });
  assert.equal(outcome.result.executed, true);
  assert.equal(outcome.review.attempts, 2);
  assert.equal(outcome.review.failure, null);
  assert.deepEqual(
    outcome.review.requests.map((r) => r.repair),
    [false, true],
  );
  // The same request (route, temperature, messages), the reminder after the policy and a blank line.
  assert.equal(seen.length, 2);
  assert.equal(seen[1].system, `${seen[0].system}\n\n${REMINDER}`);
  assert.deepEqual(seen[1].messages, seen[0].messages);
  assert.equal(seen[1].temperature, seen[0].temperature);
  assert.equal(seen[1].route, seen[0].route);
  assert.deepEqual(outcome.trace, ['review', 'review', 'downstream', 'body']);
});

test('invalid JSON twice with max_json_retries 1 fails with the exact message after two requests', async () => {
  const { outcome } = await decide([PROSE, '{"risk": "low", "decision": "allow"'], { config: { max_json_retries: 1 } });
  assert.equal(outcome.review.attempts, 2);
  assert.deepEqual(outcome.review.failure, { class: 'protocol', message: NOT_JSON });
  assert.equal(outcome.listener.kind, 'deny');
  assert.equal(outcome.listener.reason, failedReason(base.scenario.calls[0].tool.name));
  assert.equal(outcome.result.executed, false);
  // The message is normative in full: nothing of it is cut to a prefix.
  assert.equal(outcome.prefix_only, undefined);
});

test('the default budget (max_json_retries absent) is one request after invalid JSON', async () => {
  const { outcome } = await decide([PROSE]);
  assert.equal(outcome.review.attempts, 2);
  assert.deepEqual(outcome.review.failure, { class: 'protocol', message: NOT_JSON });
});

test('max_json_retries 0 makes one request', async () => {
  const { outcome } = await decide([PROSE, ALLOW], { config: { max_json_retries: 0 } });
  assert.equal(outcome.review.attempts, 1);
  assert.deepEqual(outcome.review.failure, { class: 'protocol', message: NOT_JSON });
  assert.equal(outcome.listener.kind, 'deny');
});

test('max_json_retries 3: three invalid replies, then a valid one, is allowed after four requests', async () => {
  const { outcome, seen } = await decide([PROSE, '```json\n' + ALLOW + '\n```', 'allow', ALLOW], { config: { max_json_retries: 3 } });
  assert.deepEqual(outcome.listener, { kind: 'allow' });
  assert.equal(outcome.review.attempts, 4);
  assert.deepEqual(
    outcome.review.requests.map((r) => r.repair),
    [false, true, true, true],
  );
  assert.ok(seen.slice(1).every((r) => r.system === `${seen[0].system}\n\n${REMINDER}`));
  // And with 5, a sixth invalid reply is the last.
  const five = await decide([PROSE], { config: { max_json_retries: 5 } });
  assert.equal(five.outcome.review.attempts, 6);
  assert.deepEqual(five.outcome.review.failure, { class: 'protocol', message: NOT_JSON });
});

test('where the rules do not read max_json_retries the gate asks again once, whatever the scenario says', async () => {
  const rules = { ...RULES_02X, config: ['temperature'] };
  for (const max of [0, 3]) {
    const { outcome } = await decide([PROSE], { rules, config: { max_json_retries: max } });
    assert.equal(outcome.review.attempts, 2, `max_json_retries ${max}`);
  }
});

test('a reply that is JSON but no decision is final after one request', async () => {
  for (const [text, message] of [
    ['[1]', MSG.notObject],
    ['"allow"', MSG.notObject],
    ['{"risk":"low","decision":"maybe"}', MSG.protocol],
    ['{"risk":"low","decision":"allow","decision":"allow"}', MSG.repeated],
  ]) {
    const { outcome } = await decide([text, ALLOW]);
    assert.equal(outcome.review.attempts, 1, text);
    assert.deepEqual(outcome.review.failure, { class: 'protocol', message }, text);
  }
});

test('a reply that breaks the finish or block rules is final whatever its text', async () => {
  const attempts = [
    { blocks: [{ type: 'text', text: PROSE }], finish: 'length', data_after_finish: false, delay_ms: 0 },
    { blocks: [{ type: 'text', text: PROSE }], finish: 'stop', data_after_finish: true, delay_ms: 0 },
    { blocks: [{ type: 'text', text: PROSE }, { type: 'text', text: PROSE }], finish: 'stop', data_after_finish: false, delay_ms: 0 },
    { blocks: [{ type: 'text', text: PROSE }], finish: null, data_after_finish: false, delay_ms: 0 },
    { finish: { kind: 'error', code: 'PROVIDER', message: 'upstream failed' }, delay_ms: 0 },
    { throw: 'boom', delay_ms: 0 },
  ];
  for (const attempt of attempts) {
    const { outcome } = await decide([attempt, ALLOW]);
    assert.equal(outcome.review.attempts, 1, JSON.stringify(attempt));
    assert.notEqual(outcome.review.failure, null, JSON.stringify(attempt));
    assert.notEqual(outcome.review.failure.message, NOT_JSON, JSON.stringify(attempt));
  }
});

test('no request after invalid JSON once the caller aborted the review', async () => {
  const { outcome } = await decide([{ text: PROSE, delay_ms: 10 }, ALLOW], { call: { abort: 'caller-during-review' } });
  assert.equal(outcome.review.attempts, 1);
  assert.deepEqual(outcome.review.failure, { class: 'protocol', message: NOT_JSON });
});

test('no request after invalid JSON once the lifecycle aborted the review', async () => {
  const { outcome } = await decide([{ text: PROSE, delay_ms: 10 }, ALLOW], { call: { abort: 'lifecycle-after-review' } });
  assert.equal(outcome.review.attempts, 1);
  assert.equal(outcome.listener.kind, 'cancel');
});

test('the other values of asks_again keep their own ways with invalid JSON', async () => {
  // `never`: one request, the message implementation-defined (cut to its prefix).
  const never = await decide([PROSE, ALLOW], { rules: { ...RULES_02X, asks_again: 'never' } });
  assert.equal(never.outcome.review.attempts, 1);
  assert.notEqual(never.outcome.review.failure.message, NOT_JSON);
  assert.ok(never.outcome.review.failure.message.startsWith('auto-review: '));
  // `repair-and-retry`: a repair with the repair instruction, never the reminder.
  const repair = await decide([PROSE, ALLOW], { rules: { ...RULES_02X, asks_again: 'repair-and-retry' } });
  assert.equal(repair.outcome.review.attempts, 2);
  assert.ok(!repair.seen[1].system.includes(REMINDER));
  assert.ok(repair.seen[1].system.endsWith(MSG.repairInstruction));
});

test('the kit decodes config.max_json_retries: 1 when absent, else a whole number from 0 to 5', async () => {
  let seen;
  const spy = (host, restored) => {
    seen = host.config.max_json_retries;
    return install(host, restored);
  };
  const run = (config) => runInput(scenarioOf([ALLOW], { config }), spy, { rules: RULES_02X, reply: 'call', world: structuredClone(base.world), log: () => {} });
  await run({});
  assert.equal(seen, 1);
  for (const n of [0, 2, 5]) {
    await run({ max_json_retries: n });
    assert.equal(seen, n);
  }
  for (const bad of [-1, 6, 1.5, '1', null, true]) {
    await assert.rejects(run({ max_json_retries: bad }), (error) => {
      assert.match(error.message, /^not a canonical scenario: config\.max_json_retries: expected a whole number from 0 to 5, got /);
      assert.ok(error.message.endsWith(JSON.stringify(bad)), error.message);
      return true;
    });
  }
});

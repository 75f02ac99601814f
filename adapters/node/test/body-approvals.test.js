'use strict';
// Approvals raised inside an allowed body (AR-APPROVAL-7, AR-APPROVAL-8; the rule `body_approvals`,
// the observable `body-approvals`): a call's `body` decoded and checked, the steps the tool's body
// takes when it runs (`raise` through the world's approval service, `leave_auto` through its presets
// service), the service's answerers in order (its own answers, the gate's, the human), the outcome's
// `body_approvals` and trace step `raised`, the fixed cases BA-1..BA-8 under both values of the rule,
// the upstream tests they come from, and the shell's answerer for a bare listener. Scenarios are
// canonical ones of the engine's fixture (spec/fixtures/replay.jsonl) with their calls changed.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runInput, runScenario, OBSERVABLES, PRESET_TABLE } = require('../harness.js');
const { each } = require('./comparable.js');
const { install, rules: offered, observes } = require('../example-gate.js');

const FIXTURE = path.join(__dirname, '..', '..', '..', 'spec', 'fixtures', 'replay.jsonl');
const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

const ALLOW = '{"risk":"low","decision":"allow"}';
const DENY_NOT_AUTHORIZED = '{"risk":"medium","decision":"deny","reason":"not authorized"}';
const ESCALATE = 'escalate sandbox to danger-full-access: test';
const RULE_VALUES = ['human', 'allowed-call'];
const PROFILES = ['baseline', 'resilient'];

/** A baseline call line that an allowing reviewer and downstream run: the base of every scenario here. */
const base = lines.find(
  (l) => l.profile === 'baseline' && l.reply === 'call' && !('sandbox' in l.scenario.session) && l.outcome.result.executed && l.outcome.trace.join() === 'review,downstream,body' && l.scenario.calls[0].abort === 'none' && l.scenario.policy.override === null && !('body' in l.scenario.calls[0]),
);
const rulesOf = (profile, bodyApprovals) => {
  const rules = { ...lines.find((l) => l.profile === profile).rules };
  if (bodyApprovals === null) delete rules.body_approvals; // a runner that sends no such rule
  else rules.body_approvals = bodyApprovals;
  return rules;
};

/** The base scenario's call (a reviewer that allows, downstream allow), with `change` applied. */
function callOf(change = {}) {
  const call = structuredClone(base.scenario.calls[0]);
  call.reviewer = [{ text: ALLOW, delay_ms: 0 }];
  return { ...call, ...change };
}
const WORLD = () => structuredClone(base.world[0]);
const raise = (callId, reason, answer) => ({ raise: answer === undefined ? { call_id: callId, reason } : { call_id: callId, reason, answer } });

/** A canonical scenario of `items` (calls made with callOf, or events). */
function scenario(items, { policy, preset = 'auto' } = {}) {
  const sc = structuredClone(base.scenario);
  sc.preset = preset;
  if (policy !== undefined) sc.policy = policy;
  sc.calls = items.map((item, i) => ('event' in item ? item : { ...item, id: `c${i}` }));
  return { scenario: sc, world: items.map((item) => ('event' in item ? null : WORLD())) };
}

/** Decide `items` under the rules of `profile` with `body_approvals` set, observing everything. */
async function decide(items, options = {}, { profile = 'baseline', rule = 'allowed-call', gate = install, observing = OBSERVABLES } = {}) {
  const { scenario: sc, world } = scenario(items, options);
  return runInput(sc, gate, { rules: rulesOf(profile, rule), reply: 'session', world, observes: observing, log: () => {} });
}

/**
 * The example gate with a recorder of what reaches the human: an `approval/request` listener
 * registered last (after the gate's prepended answerer), as upstream's `userAnswers` is, which
 * records each request's reason and passes it on to the scripted human.
 */
function withAsked(asked, inner = install) {
  return (host, restored) => {
    const integration = inner(host, restored);
    const stop = host.on('approval/request', (request, next) => {
      asked.push(request.reason ?? null);
      return next();
    });
    return {
      ...integration,
      async dispose() {
        await integration.dispose();
        stop();
      },
    };
  };
}

const entry = (callId, reason, answeredBy, answer) => ({ call_id: callId, reason, answered_by: answeredBy, answer });

test('the kit and the example gate offer body approvals, and the gate lists both values of its rule', () => {
  assert.ok(OBSERVABLES.includes('body-approvals'));
  assert.ok(observes.includes('body-approvals'));
  assert.deepEqual([...offered.body_approvals], RULE_VALUES);
});

// ---- The fixed cases BA-1..BA-8 (spec chapter 6), under each profile's rules and each value ------

/** Each fixed case: its items, options, and what each value of the rule expects of the call `at`. */
const FIXED = [
  {
    id: 'BA-1',
    what: 'an allowed call\'s own escalation: the gate answers it under allowed-call, the human under human',
    items: [callOf({ body: [raise('own', ESCALATE, 'rejected')] })],
    expect: (rule, o) => {
      assert.deepEqual(o.body_approvals, [rule === 'allowed-call' ? entry('own', ESCALATE, 'gate', 'allowed-once') : entry('own', ESCALATE, 'human', 'rejected')]);
      assert.deepEqual(o.trace, ['review', 'downstream', 'body', 'raised']);
      assert.equal(o.approval, null, 'no pre-dispatch ask');
      assert.deepEqual(o.result, { executed: true, text: null, info: null }, 'the body ran, whatever its request came to');
    },
  },
  {
    id: 'BA-2',
    what: 'a call the reviewer denied and the human allowed: its escalation still reaches the human',
    items: [callOf({ reviewer: [{ text: DENY_NOT_AUTHORIZED, delay_ms: 0 }], approval: 'allowed-once', body: [raise('own', ESCALATE, 'rejected')] })],
    options: { policy: { override: 'ask', default: 'ask' } },
    expect: (_rule, o) => {
      assert.equal(o.listener.kind, 'ask');
      assert.deepEqual([o.approval.answer, o.approval.prompted], ['allowed-once', true], 'the pre-dispatch ask, answered by the human');
      assert.equal(o.approval.reason, 'Auto review denied tool "pwsh": not authorized');
      assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'human', 'rejected')]);
      assert.deepEqual(o.trace, ['review', 'downstream', 'approval', 'body', 'raised']);
    },
  },
  {
    id: 'BA-3',
    what: 'downstream\'s own ask for an allowed call: not covered',
    items: [callOf({ downstream: { kind: 'ask', reason: 'hook wants approval' }, approval: 'allowed-once', body: [raise('own', ESCALATE, 'rejected')] })],
    expect: (_rule, o) => {
      assert.deepEqual(o.listener, { kind: 'ask', reason: 'hook wants approval' });
      assert.deepEqual([o.approval.answer, o.approval.prompted], ['allowed-once', true]);
      assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'human', 'rejected')]);
    },
  },
  {
    id: 'BA-4',
    what: 'requests with no call id or an unreviewed one go to the human',
    items: [callOf({ body: [raise('none', 'no call id', 'rejected'), raise('unreviewed', 'unreviewed call', 'rejected')] })],
    expect: (_rule, o) => {
      assert.deepEqual(o.body_approvals, [entry('none', 'no call id', 'human', 'rejected'), entry('unreviewed', 'unreviewed call', 'human', 'rejected')]);
      assert.deepEqual(o.trace, ['review', 'downstream', 'body', 'raised', 'raised']);
    },
  },
  {
    id: 'BA-5',
    what: 'a body that left Auto first: its escalation goes to the human',
    items: [callOf({ body: [{ leave_auto: 'workspace-write' }, raise('own', ESCALATE, 'rejected')] })],
    expect: (_rule, o) => {
      assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'human', 'rejected')]);
      assert.deepEqual(o.sandbox, { before: 'danger-full-access', after: 'workspace-write' }, 'the preset\'s bundle writes its mode');
      assert.deepEqual(o.trace, ['review', 'downstream', 'body', 'raised'], 'leave_auto records nothing itself');
    },
  },
  {
    id: 'BA-6',
    what: 'under the policy never the service rejects before any answerer',
    items: [callOf({ body: [raise('own', ESCALATE)], approval: 'allowed-once' })],
    options: { policy: { override: 'never', default: 'ask' } },
    expect: (_rule, o) => {
      assert.equal(o.listener.kind, 'allow');
      assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'service', 'rejected')]);
    },
  },
  {
    id: 'BA-7',
    what: 'a finished call is forgotten: a later request naming it goes to the human',
    items: [callOf(), callOf({ body: [raise('finished', 'late ask', 'rejected')] })],
    at: 1,
    expect: (_rule, o, calls) => {
      assert.equal(calls[0].result.executed, true);
      assert.equal(calls[0].body_approvals, undefined, 'a body that raised nothing records nothing');
      assert.deepEqual(o.body_approvals, [entry('finished', 'late ask', 'human', 'rejected')]);
    },
  },
  {
    id: 'BA-8',
    what: 'the outer run_code passes through unreviewed: its request goes to the human',
    items: [callOf({ tool: { name: 'run_code', call: 'run-code' }, body: [raise('own', ESCALATE)] })],
    expect: (_rule, o) => {
      assert.equal(o.review.attempts, 0);
      assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'human', 'unavailable')], 'the call\'s approval answers');
      assert.deepEqual(o.trace, ['downstream', 'body', 'raised']);
    },
  },
];

for (const { id, what, items, options = {}, at = 0, expect } of FIXED) {
  for (const profile of PROFILES) {
    for (const rule of RULE_VALUES) {
      test(`${id} (${profile} rules, body_approvals ${rule}): ${what}`, async () => {
        const { calls } = await decide(items, options, { profile, rule });
        expect(rule, calls[at], calls);
      });
    }
  }
}

test('a missing rule means human: the gate answers nothing', async () => {
  for (const profile of PROFILES) {
    const [o] = (await decide([callOf({ body: [raise('own', ESCALATE, 'rejected')] })], {}, { profile, rule: null })).calls;
    assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'human', 'rejected')], profile);
  }
});

// ---- The upstream tests ("Auto on a backend that confines reads") ----------------------------

test('answers the approvals an allowed call raises instead of asking the user', async () => {
  const asked = [];
  const seen = [];
  const spy = (host, restored) => {
    const integration = withAsked(asked)(host, restored);
    // Registered first of all, so it sees every request the service passes to its answerers.
    host.on('approval/request', (request, next) => {
      seen.push({ toolName: request.toolName, reason: request.reason, callId: request.callId });
      return next();
    }, { prepend: true });
    return integration;
  };
  const [o] = (await decide([callOf({ body: [raise('own', ESCALATE, 'rejected')] })], {}, { profile: 'resilient', gate: spy })).calls;
  assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'gate', 'allowed-once')]);
  assert.deepEqual(asked, [], 'the user is asked nothing');
  assert.deepEqual(seen, [{ toolName: 'pwsh', reason: ESCALATE, callId: 'call-1' }]);
});

test('still asks the user about an approval raised by a call the reviewer denied and the user allowed', async () => {
  const asked = [];
  const denied = callOf({ reviewer: [{ text: DENY_NOT_AUTHORIZED, delay_ms: 0 }], approval: 'allowed-once', body: [raise('own', ESCALATE, 'rejected')] });
  const [o] = (await decide([denied], {}, { profile: 'resilient', gate: withAsked(asked) })).calls;
  assert.deepEqual(asked, ['Auto review denied tool "pwsh": not authorized', ESCALATE]);
  assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'human', 'rejected')]);
});

test('does not answer a downstream listener\'s own ask for an allowed call', async () => {
  const asked = [];
  const hooked = callOf({ downstream: { kind: 'ask', reason: 'hook wants approval' }, approval: 'allowed-once' });
  const [o] = (await decide([hooked], {}, { profile: 'resilient', gate: withAsked(asked) })).calls;
  assert.deepEqual(asked, ['hook wants approval']);
  assert.equal(o.result.executed, true);
});

test('stops answering once the session leaves Auto while the call runs', async () => {
  const asked = [];
  const leaving = callOf({ body: [{ leave_auto: 'workspace-write' }, raise('own', ESCALATE, 'rejected')] });
  const { calls } = await decide([leaving, callOf({ body: [raise('own', 'second', 'rejected')] })], {}, { profile: 'resilient', gate: withAsked(asked) });
  assert.deepEqual(asked, [ESCALATE, 'second']);
  assert.deepEqual(calls[0].body_approvals, [entry('own', ESCALATE, 'human', 'rejected')]);
  // The next call sees the preset the body selected: it passes through unreviewed, its request
  // reaches the human.
  assert.equal(calls[1].review.attempts, 0);
  assert.deepEqual(calls[1].trace, ['downstream', 'body', 'raised']);
  assert.deepEqual(calls[1].sandbox, { before: 'workspace-write', after: 'workspace-write' });
});

test('asks the user about approvals that carry no call id or name a call nobody reviewed', async () => {
  const asked = [];
  const seen = [];
  const spy = (host, restored) => {
    const integration = withAsked(asked)(host, restored);
    host.on('approval/request', (request, next) => {
      seen.push(request.callId);
      return next();
    });
    return integration;
  };
  await decide([callOf({ body: [raise('none', 'no call id', 'rejected'), raise('unreviewed', 'unreviewed call', 'rejected')] })], {}, { profile: 'resilient', gate: spy });
  assert.deepEqual(asked, ['no call id', 'unreviewed call']);
  assert.deepEqual(seen, [undefined, 'call-unreviewed']);
});

test('forgets an allowed call once it finishes', async () => {
  const asked = [];
  const { calls } = await decide([callOf({ body: [raise('own', 'first', 'rejected')] }), callOf({ body: [raise('finished', 'late ask', 'rejected')] })], {}, { profile: 'resilient', gate: withAsked(asked) });
  assert.deepEqual(calls[0].body_approvals, [entry('own', 'first', 'gate', 'allowed-once')]);
  assert.deepEqual(calls[1].body_approvals, [entry('finished', 'late ask', 'human', 'rejected')]);
  assert.deepEqual(asked, ['late ask']);
});

test('confines a delegated child without unpinning its never approval policy, so its escalation is still rejected', async () => {
  const asked = [];
  const [o] = (await decide([callOf({ body: [raise('own', ESCALATE)], approval: 'allowed-once' })], { policy: { override: 'never', default: 'ask' } }, { profile: 'resilient', gate: withAsked(asked) })).calls;
  assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'service', 'rejected')]);
  assert.deepEqual(asked, [], 'neither the gate nor the user answers it');
});

// ---- Coverage: exactly the calls the reviewer and downstream allowed ---------------------------

test('a call allowed but aborted before dispatch is forgotten too: a later request naming it reaches the human', async () => {
  // The caller aborts while the review is in flight; the reviewer still allows (AR-CANCEL-5), so
  // the gate allows, but the runtime refuses the call before dispatch. Its result is produced all
  // the same, and the call is forgotten with it.
  const aborted = callOf({ reviewer: [{ text: ALLOW, delay_ms: 5 }], abort: 'caller-during-review' });
  for (const profile of PROFILES) {
    const { calls } = await decide([aborted, callOf({ body: [raise('finished', 'late ask', 'rejected')] })], {}, { profile });
    assert.equal(calls[0].result.executed, false, profile);
    assert.deepEqual(calls[1].body_approvals, [entry('finished', 'late ask', 'human', 'rejected')], profile);
  }
});

test('a reviewer failure asked about and allowed by the human is not covered', async () => {
  const failing = callOf({ reviewer: [{ throw: { message: 'boom' }, delay_ms: 0 }], approval: 'allowed-once', body: [raise('own', ESCALATE, 'rejected')] });
  const [o] = (await decide([failing], {}, { profile: 'resilient' })).calls;
  assert.equal(o.listener.kind, 'ask');
  assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'human', 'rejected')]);
});

test('a body that leaves Auto for full access meets never at the service', async () => {
  const [o] = (await decide([callOf({ body: [{ leave_auto: 'danger-full-access' }, raise('own', ESCALATE, 'allowed-once')] })], {}, { profile: 'resilient' })).calls;
  assert.deepEqual(o.body_approvals, [entry('own', ESCALATE, 'service', 'rejected')]);
  assert.equal(o.sandbox, undefined, 'full access throughout');
});

test('the same agent makes every call: a gate that never forgets is caught by a finished call\'s request', async () => {
  // A planted defect (the design's second): coverage kept after the call finished.
  const neverForgets = (host) => {
    const allowed = new WeakMap();
    const unregister = host.permissionPresets.registerAuto(() => {});
    const stop = host.on('approval/request', (request, next) => (allowed.get(request.agent)?.has(request.callId) ? Promise.resolve('allowed-once') : next()), { prepend: true });
    return {
      async listener(exec, next) {
        const d = await next();
        if (d.kind === 'allow' && exec.agent) allowed.set(exec.agent, (allowed.get(exec.agent) ?? new Set()).add(exec.callId));
        return d;
      },
      dispose: async () => {
        unregister();
        stop();
      },
    };
  };
  const { calls } = await decide([callOf(), callOf({ body: [raise('finished', 'late ask', 'rejected')] })], {}, { gate: neverForgets });
  assert.deepEqual(calls[1].body_approvals, [entry('finished', 'late ask', 'gate', 'allowed-once')]);
});

test('disposal unregisters the answerer: after a dispose and a fresh install, coverage starts empty', async () => {
  const items = [callOf({ body: [raise('own', 'before', 'rejected')] }), { event: 'dispose' }, { event: 'install' }, { event: 'select-auto' }, callOf({ body: [raise('own', 'after', 'rejected')] })];
  const { calls } = await decide(items, {}, { profile: 'resilient' });
  assert.deepEqual(calls[0].body_approvals, [entry('own', 'before', 'gate', 'allowed-once')]);
  assert.deepEqual(calls[4].body_approvals, [entry('own', 'after', 'gate', 'allowed-once')], 'the new installation answers its own allowed call');
  const gone = (await decide([{ event: 'dispose' }, callOf({ body: [raise('own', 'gone', 'rejected')] })], {}, { profile: 'resilient' })).calls[1];
  assert.equal(gone.review.attempts, 0, 'no integration: the call passes through');
  assert.deepEqual(gone.body_approvals, [entry('own', 'gone', 'service', 'rejected')], 'disposal moved the session to Full access (never)');
});

// ---- The world: the approval service, its answerers, post-execute, the outcome -----------------

/** A gate that lets downstream decide, with hooks given by `hook(host)`. */
function probeGate(hook) {
  return (host) => {
    const unregister = host.permissionPresets.registerAuto(() => {});
    const stops = hook(host) ?? [];
    return {
      listener: (_exec, next) => next(),
      dispose: async () => {
        unregister();
        for (const stop of stops) stop();
      },
    };
  };
}

test('answerers run in order, prepended first; one passes on with next(); the human answers last', async () => {
  const order = [];
  const gate = probeGate((host) => [
    host.on('approval/request', (_r, next) => {
      order.push('appended');
      return next();
    }),
    host.on('approval/request', (_r, next) => {
      order.push('prepended');
      return next();
    }, { prepend: true }),
  ]);
  const [o] = (await decide([callOf({ body: [raise('own', 'r', 'cancelled')] })], {}, { gate })).calls;
  assert.deepEqual(order, ['prepended', 'appended']);
  assert.deepEqual(o.body_approvals, [entry('own', 'r', 'human', 'cancelled')]);

  const answering = probeGate((host) => [host.on('approval/request', () => 'rejected')]);
  const [p] = (await decide([callOf({ body: [raise('none', 'r', 'allowed-once')] })], {}, { gate: answering })).calls;
  assert.deepEqual(p.body_approvals, [entry('none', 'r', 'gate', 'rejected')], 'answered without the human: the gate\'s');
});

test('the request an answerer gets: the running call\'s agent, the named call id, the tool\'s name, the reason', async () => {
  const seen = [];
  let agentOf = null;
  const gate = (host) => {
    const unregister = host.permissionPresets.registerAuto(() => {});
    const stop = host.on('approval/request', (request, next) => {
      seen.push({ sameAgent: request.agent === agentOf, callId: request.callId, toolName: request.toolName, reason: request.reason });
      return next();
    });
    return {
      listener(exec, next) {
        agentOf = exec.agent;
        return next();
      },
      dispose: async () => {
        unregister();
        stop();
      },
    };
  };
  const body = [raise('own', 'a', 'rejected'), raise('none', 'b', 'rejected'), raise('unreviewed', 'c', 'rejected'), raise('finished', 'd', 'rejected')];
  await decide([callOf(), { event: 'select-auto' }, callOf({ body })], {}, { gate });
  assert.deepEqual(seen, [
    { sameAgent: true, callId: 'call-2', toolName: 'pwsh', reason: 'a' },
    { sameAgent: true, callId: undefined, toolName: 'pwsh', reason: 'b' },
    { sameAgent: true, callId: 'call-unreviewed', toolName: 'pwsh', reason: 'c' },
    { sameAgent: true, callId: 'call-1', toolName: 'pwsh', reason: 'd' },
  ]);
});

test('a step without an answer is answered with the call\'s approval; with one, with its own', async () => {
  for (const approval of ['allowed-once', 'rejected', 'cancelled', 'unavailable']) {
    const [o] = (await decide([callOf({ approval, body: [raise('none', 'default'), raise('none', 'own', 'rejected')] })], {}, { rule: 'human' })).calls;
    assert.deepEqual(o.body_approvals, [entry('none', 'default', 'human', approval), entry('none', 'own', 'human', 'rejected')]);
  }
  // A call whose own requests throw (no turn is open) raises none from its body (RZ-12).
  await assert.rejects(
    decide([callOf({ approval: 'throws', body: [raise('own', 'x', 'allowed-once')] })], {}, { rule: 'human' }),
    /calls\[0\]\.body\[0\]\.raise: the call's "approval" is "throws": no turn is open, so its body raises no request \(RZ-12\)/,
  );
});

test('the pre-dispatch ask goes through the answerers too, and `approval` still records only it', async () => {
  const seen = [];
  const gate = probeGate((host) => [
    host.on('approval/request', (request, next) => {
      seen.push(request.reason);
      return next();
    }),
  ]);
  const asks = callOf({ downstream: { kind: 'ask', reason: 'hook' }, approval: 'allowed-once', body: [raise('own', 'inside', 'rejected')] });
  const [o] = (await decide([asks], {}, { gate })).calls;
  assert.deepEqual(seen, ['hook', 'inside']);
  assert.deepEqual(o.approval, { reason: 'hook', display_reason: null, answer: 'allowed-once', prompted: true });
  assert.deepEqual(o.body_approvals, [entry('own', 'inside', 'human', 'rejected')]);
  assert.deepEqual(o.trace, ['downstream', 'approval', 'body', 'raised']);
});

test('post-execute listeners run once the result is produced (the body\'s included), never after a throw out of the stage', async () => {
  const seen = [];
  const gate = probeGate((host) => [
    host.on('tools/post-execute', (exec, result, next) => {
      seen.push([exec.callId, result.executed]);
      return next();
    }),
  ]);
  const items = [
    callOf({ body: [raise('own', 'r', 'rejected')] }),
    callOf({ downstream: { kind: 'deny', reason: 'no', info: null } }),
    callOf({ abort: 'caller-before-dispatch' }),
  ];
  await decide(items, {}, { gate });
  assert.deepEqual(seen, [['call-1', true], ['call-2', false]], 'a call aborted before the stage never reaches it');

  const throwing = (host) => {
    const unregister = host.permissionPresets.registerAuto(() => {});
    const stop = host.on('tools/post-execute', (exec, _result, next) => {
      seen.push(['thrown', exec.callId]);
      return next();
    });
    return {
      listener() {
        throw new Error('a bug in the gate');
      },
      dispose: async () => {
        unregister();
        stop();
      },
    };
  };
  seen.length = 0;
  const [o] = (await decide([callOf()], {}, { gate: throwing })).calls;
  assert.deepEqual(o.result, { executed: false, text: 'Error: a bug in the gate', info: null });
  assert.deepEqual(seen, []);
});

test('an answerer that throws, answers something else or calls next() twice fails the decide, saying so', async () => {
  const cases = [
    [() => {
      throw new Error('oops');
    }, /an approval\/request listener threw: Error: oops/],
    [() => 'maybe', /an approval\/request listener answered "maybe", not one of "allowed-once", "rejected", "cancelled", "unavailable"/],
    [async (_r, next) => {
      await next();
      return next();
    }, /called next\(\) twice/],
  ];
  for (const [answerer, message] of cases) {
    const gate = probeGate((host) => [host.on('approval/request', answerer)]);
    await assert.rejects(decide([callOf({ body: [raise('own', 'r', 'rejected')] })], {}, { gate }), message);
    // At the pre-dispatch ask too: it is the gate's defect, not the service's throw.
    await assert.rejects(decide([callOf({ downstream: { kind: 'ask', reason: 'hook' } })], {}, { gate }), message);
  }
  const postThrows = probeGate((host) => [host.on('tools/post-execute', () => {
    throw new Error('late');
  })]);
  await assert.rejects(decide([callOf()], {}, { gate: postThrows }), /a tools\/post-execute listener threw: Error: late/);
});

test('host.on refuses an unknown event and a listener that is not a function; its removal removes only its own', async () => {
  let checked = false;
  const gate = probeGate((host) => {
    assert.throws(() => host.on('approval/decided', () => {}), /host\.on: unknown event "approval\/decided"; known: approval\/request, tools\/post-execute/);
    assert.throws(() => host.on('approval/request', 'no'), TypeError);
    const same = () => 'rejected';
    const stopFirst = host.on('approval/request', same);
    host.on('approval/request', same);
    stopFirst();
    stopFirst(); // twice: nothing more
    checked = true;
    return [];
  });
  const [o] = (await decide([callOf({ body: [raise('own', 'r', 'allowed-once')] })], {}, { gate })).calls;
  assert.ok(checked);
  assert.deepEqual(o.body_approvals, [entry('own', 'r', 'gate', 'rejected')], 'the second registration still answers');
});

test('a run that does not observe body-approvals records no entry and no raised step, but the body still acts', async () => {
  const without = OBSERVABLES.filter((o) => o !== 'body-approvals');
  const items = [callOf({ body: [raise('own', 'r', 'rejected'), { leave_auto: 'workspace-write' }] }), callOf()];
  const { calls } = await decide(items, {}, { observing: without });
  assert.equal(calls[0].body_approvals, undefined);
  assert.deepEqual(calls[0].trace, ['review', 'downstream', 'body']);
  assert.equal(calls[1].review.attempts, 0, 'the preset the body selected holds for the next call');
});

test('a body that never runs raises nothing, and an empty body leaves the outcome as it was', async () => {
  const denied = callOf({ downstream: { kind: 'deny', reason: 'no', info: null }, body: [raise('own', 'r', 'rejected'), { leave_auto: 'danger-full-access' }] });
  const [o] = (await decide([denied], {})).calls;
  assert.equal(o.body_approvals, undefined);
  assert.deepEqual(o.trace, ['review', 'downstream']);
  assert.equal(o.sandbox, undefined, 'no preset selected');
  // `body: []` written out decodes as the member left out.
  const { scenario: sc, world } = scenario([callOf()]);
  const left = await runInput(sc, install, { rules: rulesOf('baseline', 'human'), reply: 'call', world, log: () => {} });
  sc.calls[0].body = [];
  const written = await runInput(sc, install, { rules: rulesOf('baseline', 'human'), reply: 'call', world, log: () => {} });
  assert.deepEqual(written, left);
  assert.equal('body_approvals' in written, false);
});

test('leave_auto writes the preset\'s bundle: its policy and mode (danger-full-access: never), which later calls see', async () => {
  for (const [preset, policy] of Object.entries(PRESET_TABLE).filter(([p]) => p !== 'read-only')) {
    let read = null;
    const gate = (host) => {
      const unregister = host.permissionPresets.registerAuto(() => {});
      return {
        listener(exec, next) {
          if (read === null && exec.callId === 'call-2') read = [host.permissionPresets.current(exec.agent.session), host.approval.effectivePolicy(exec.agent.session), host.sandboxPolicy.modeOf(exec.agent.session)];
          return next();
        },
        dispose: async () => unregister(),
      };
    };
    const { calls } = await decide([callOf({ body: [{ leave_auto: preset }] }), callOf()], {}, { gate });
    assert.deepEqual(read, [preset, policy, preset], preset);
    assert.deepEqual(calls[0].trace, ['downstream', 'body']);
  }
});

// ---- Decoding a body ---------------------------------------------------------------------------

test('a body that is not one is refused, saying where and what was expected', async () => {
  const refused = [
    [{ body: {} }, /calls\[0\]\.body: expected an array of steps/],
    [{ body: [{}] }, /calls\[0\]\.body\[0\]: expected an object with exactly one member, "raise" or "leave_auto", got \{\}/],
    [{ body: [{ raise: { call_id: 'own', reason: 'r' }, leave_auto: 'workspace-write' }] }, /calls\[0\]\.body\[0\]: expected an object with exactly one member/],
    [{ body: [{ run: 'x' }] }, /calls\[0\]\.body\[0\]: expected an object with exactly one member, "raise" or "leave_auto", got \{"run":"x"\}/],
    [{ body: ['raise'] }, /calls\[0\]\.body\[0\]: expected an object/],
    [{ body: [{ leave_auto: 'read-only' }] }, /calls\[0\]\.body\[0\]\.leave_auto: expected one of "workspace-write", "danger-full-access", got "read-only"/],
    [{ body: [{ raise: 'own' }] }, /calls\[0\]\.body\[0\]\.raise: expected an object \{"call_id", "reason", "answer"\?\}, got "own"/],
    [{ body: [{ raise: { call_id: 'mine', reason: 'r' } }] }, /calls\[0\]\.body\[0\]\.raise\.call_id: expected one of "own", "none", "unreviewed", "finished", got "mine"/],
    [{ body: [{ raise: { call_id: 'own' } }] }, /calls\[0\]\.body\[0\]\.raise\.reason: expected a string, got nothing/],
    [{ body: [{ raise: { call_id: 'own', reason: 'r', answer: 'throws' } }] }, /calls\[0\]\.body\[0\]\.raise\.answer: expected one of "allowed-once", "rejected", "cancelled", "unavailable", got "throws"/],
    [{ body: [{ raise: { call_id: 'own', reason: 'r', display_reason: 'x' } }] }, /calls\[0\]\.body\[0\]\.raise: unknown member "display_reason"/],
    [{ agent: false, body: [{ raise: { call_id: 'none', reason: 'r', answer: 'rejected' } }] }, /calls\[0\]\.body\[0\]: a call without an agent has no body steps/],
    [{ agent: false, body: [{ leave_auto: 'workspace-write' }] }, /calls\[0\]\.body\[0\]: a call without an agent has no body steps/],
    [{ approval: 'throws', body: [{ raise: { call_id: 'own', reason: 'r' } }] }, /calls\[0\]\.body\[0\]\.raise: the call's "approval" is "throws"/],
    [{ body: [{ leave_auto: 'workspace-write' }, { raise: { call_id: 'finished', reason: 'r' } }] }, /calls\[0\]\.body\[1\]\.raise\.call_id: "finished" names the session's most recent earlier call, and no call comes before this one/],
  ];
  for (const [change, message] of refused) {
    const { scenario: sc, world } = scenario([callOf(change)]);
    await assert.rejects(runInput(sc, install, { rules: rulesOf('baseline', 'human'), reply: 'call', world, log: () => {} }), message, JSON.stringify(change));
  }
  // Where the error names the item: an event before the call is counted, and counts as no call.
  const { scenario: sc, world } = scenario([{ event: 'select-auto' }, callOf({ body: [raise('finished', 'r')] })]);
  await assert.rejects(runInput(sc, install, { rules: rulesOf('baseline', 'human'), reply: 'session', world, log: () => {} }), /not a canonical scenario: calls\[1\]\.body\[0\]\.raise\.call_id: "finished"/);
});

// ---- The shell around a bare listener -------------------------------------------------------

test('the shell answers for a bare listener what it allowed with env.allowCall, under allowed-call only', async () => {
  const bare = (verdict) => async (exec, next, env) => {
    const d = await next();
    env.allowCall(exec);
    return verdict ?? d;
  };
  const run = async (gate, rule, items) => {
    const { scenario: sc, world } = scenario(items);
    return (await runScenario(sc, gate, { rules: rulesOf('resilient', rule), reply: 'session', world, log: () => {} })).calls;
  };
  const own = [callOf({ body: [raise('own', 'r', 'rejected')] })];
  assert.deepEqual((await run(bare(), 'allowed-call', own))[0].body_approvals, [entry('own', 'r', 'gate', 'allowed-once')]);
  assert.deepEqual((await run(bare(), 'human', own))[0].body_approvals, [entry('own', 'r', 'human', 'rejected')]);
  // Said, but the listener then asked: not covered.
  const asked = await run(bare({ kind: 'ask', reason: 'q' }), 'allowed-call', [callOf({ approval: 'allowed-once', body: [raise('own', 'r', 'rejected')] })]);
  assert.deepEqual(asked[0].body_approvals, [entry('own', 'r', 'human', 'rejected')]);
  // Forgotten once the call's result is produced.
  const later = await run(bare(), 'allowed-call', [callOf(), callOf({ body: [raise('finished', 'late', 'rejected')] })]);
  assert.deepEqual(later[1].body_approvals, [entry('finished', 'late', 'human', 'rejected')]);
});

// ---- The fixture's lines with a body, once the reference writes them ---------------------------

const withBody = lines.filter((l) => l.scenario.calls.some((item) => Array.isArray(item.body) && item.body.length > 0));

test('the example gate reaches the reference outcome of every fixture line with a body, under both values of the rule as the line says', { skip: withBody.length === 0 && 'the fixture holds no body yet' }, async () => {
  for (const line of withBody) {
    const got = await runInput(line.scenario, install, { rules: line.rules, reply: line.reply, world: line.world, log: () => {} });
    assert.deepEqual(each(got, line.outcome), each(line.outcome, line.outcome), line.case);
  }
});

test('body_approvals alone changes only what the gate answers: an own request of an allowed call in Auto', { skip: withBody.length === 0 && 'the fixture holds no body yet' }, async () => {
  const strip = (o) => JSON.parse(JSON.stringify(o, (k, v) => (k === 'body_approvals' || k === 'prefix_only' ? undefined : v)));
  const calls = (o) => (Array.isArray(o.calls) ? o.calls : [o]);
  for (const line of withBody) {
    const to = line.rules.body_approvals === 'allowed-call' ? 'human' : 'allowed-call';
    const got = await runInput(line.scenario, install, { rules: { ...line.rules, body_approvals: to }, reply: line.reply, world: line.world, log: () => {} });
    assert.deepEqual(strip(each(got, line.outcome)), strip(each(line.outcome, line.outcome)), line.case);
    const want = calls(line.outcome);
    calls(got).forEach((g, i) => {
      (g.body_approvals ?? []).forEach((e, j) => {
        const w = want[i].body_approvals[j];
        if (to === 'human') {
          // The gate no longer answers; whatever it answered reaches the human.
          assert.notEqual(e.answered_by, 'gate', line.case);
          if (w.answered_by !== 'gate') assert.deepEqual(e, w, line.case);
        } else if (e.answered_by === 'gate') {
          assert.deepEqual([e.call_id, e.answer, w.answered_by], ['own', 'allowed-once', 'human'], line.case);
        } else {
          assert.deepEqual(e, w, line.case);
        }
      });
    });
  }
});

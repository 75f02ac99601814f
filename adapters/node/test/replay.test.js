'use strict';
// Replays the engine's fixture (spec/fixtures/replay.jsonl): every canonical scenario decodes,
// the scripted world answers as the fixture says, and the example gate, under each line's rules,
// reaches the reference outcome. Run with `npm test` here, or `node --test adapters/node/test/`.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { runInput } = require('../harness.js');
const { each } = require('./comparable.js');
const { install } = require('../example-gate.js');

const FIXTURE = path.join(__dirname, '..', '..', '..', 'spec', 'fixtures', 'replay.jsonl');
const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

/** A gate that only looks at the world of each call, then lets the rest of the chain decide. */
function probe(seen) {
  return (host) => {
    const unregister = host.permissionPresets.registerAuto(() => {});
    return {
      async listener(exec, next, env) {
        const world = {
          header_schemas: env.tools.headerSchemas(exec).length,
          registry_schemas: env.tools.registrySchemas(exec).length,
        };
        if (exec.agent) {
          try {
            exec.agent.session.log.pendingAction(exec);
            world.log_error = null;
          } catch (error) {
            world.log_error = error.message;
          }
        }
        seen.set(exec.callId, world);
        return next();
      },
      dispose: async () => unregister(),
    };
  };
}

test('every line carries the rules its runner would send', () => {
  for (const line of lines) assert.equal(typeof line.rules, 'object', `${line.case}: no rules`);
});

test('the fixture holds calls and sessions of every shipped profile', () => {
  const kinds = new Set(lines.map((l) => `${l.profile} ${l.reply}`));
  assert.deepEqual([...kinds].sort(), [
    'baseline call', 'baseline session',
    'resilient call', 'resilient session',
    'shipped-0.2 call', 'shipped-0.2 session',
  ]);
});

test('the scripted world answers each call as the fixture says', async () => {
  let checked = 0;
  for (const line of lines) {
    const seen = new Map();
    await runInput(line.scenario, probe(seen), { rules: line.rules, reply: line.reply, world: line.world, log: () => {} });
    // Calls are numbered in order; one the listener never saw (aborted first, or after a
    // disposal) has nothing to compare.
    let n = 0;
    line.world.forEach((want, i) => {
      if (want === null) return;
      n += 1;
      const got = seen.get(`call-${n}`);
      if (got === undefined) return;
      const call = line.scenario.calls[i];
      const expected = call.agent ? want : { header_schemas: want.header_schemas, registry_schemas: want.registry_schemas };
      assert.deepEqual(got, expected, `${line.case} calls[${i}]`);
      checked += 1;
    });
  }
  assert.ok(checked > 500, `${checked} calls checked`);
});


test('the example gate reaches the reference outcome of every line', async () => {
  const failed = [];
  for (const line of lines) {
    const outcome = await runInput(line.scenario, install, { rules: line.rules, reply: line.reply, world: line.world, log: () => {} });
    try {
      assert.deepEqual(each(outcome, line.outcome), each(line.outcome, line.outcome));
    } catch (error) {
      failed.push(`${line.profile} ${line.case}: ${error.message.slice(0, 600)}`);
    }
  }
  assert.deepEqual(failed, []);
});

test('a profile named without rules is refused, saying where rules come from (kit 0.3.0)', async () => {
  // The kit decides by the run's rules only: no name stands for rules any more.
  const line = lines[0];
  await assert.rejects(
    runInput(line.scenario, install, { profile: line.profile, reply: line.reply, world: line.world, log: () => {} }),
    /runInput: no `rules` given: a gate decides by the run's rules, not by a profile's name \(the runner's hello carries them, and `autoreview profiles --json` lists each profile's `rules`\)/,
  );
});

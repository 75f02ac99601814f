'use strict';
// The kit's API as an adapter author depends on it: only the package's public entry points are
// required (by the package's name, which resolves to this directory), the exports are exactly those
// README.md's "The kit's API" lists, and a small adapter built on `serve`, run as the runner runs
// one, answers a runner's hello and decides a line of the engine's fixture as the reference does.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const readline = require('node:readline');

const ROOT = path.join(__dirname, '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const FIXTURE = path.join(ROOT, '..', '..', 'spec', 'fixtures', 'replay.jsonl');
const pkg = require('@autoreview/kit/package.json');

/** The README's API section: from its heading to the next section of the same level. */
function apiSection() {
  const start = README.indexOf("\n## The kit's API\n");
  assert.ok(start >= 0, 'README.md has no section "The kit\'s API"');
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

/** The names the API section's table under `heading` lists, one row each. */
function listed(heading) {
  const section = apiSection();
  const at = section.indexOf(`\n### ${heading}\n`);
  assert.ok(at >= 0, `no "### ${heading}" in the API section`);
  const next = section.indexOf('\n### ', at + 1);
  const names = [];
  for (const line of section.slice(at, next < 0 ? undefined : next).split('\n')) {
    const row = /^\| `([A-Za-z_$][\w$]*)` \|/.exec(line);
    if (row) names.push(row[1]);
  }
  assert.ok(names.length > 0, `"${heading}" lists nothing`);
  return names.sort();
}

const MODULES = [
  ['`@autoreview/kit` (`harness.js`)', '@autoreview/kit'],
  ['`@autoreview/kit/example-gate` (`example-gate.js`)', '@autoreview/kit/example-gate'],
  ['`@autoreview/kit/rc3-model` (`rc3-model.js`)', '@autoreview/kit/rc3-model'],
];

for (const [heading, entry] of MODULES) {
  test(`${entry} exports exactly what the README lists`, () => {
    assert.deepEqual(Object.keys(require(entry)).sort(), listed(heading));
  });
}

test('the README names the package version and every entry point', () => {
  assert.match(apiSection(), new RegExp(`\\*\\*Version:\\s+\`${pkg.version.replaceAll('.', '\\.')}\`\\*\\*`));
  assert.equal(require('@autoreview/kit'), require('@autoreview/kit/harness'));
  for (const entry of Object.keys(pkg.exports)) {
    const name = entry === '.' ? '@autoreview/kit' : `@autoreview/kit${entry.slice(1)}`;
    assert.ok(apiSection().includes(`\`${name}\``), `${name} is not in the API section`);
    require.resolve(name); // the skeleton is an adapter: resolved, not required
  }
  assert.match(pkg.version, /^\d+\.\d+\.\d+$/);
});

const FIXTURE_LINES = fs.readFileSync(FIXTURE, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

/** A line of the fixture under `profile` whose outcome is compared whole (no text cut to a prefix). */
function fixtureLine(profile) {
  const line = FIXTURE_LINES.find((l) => l.profile === profile && l.reply === 'call' && !JSON.stringify(l.outcome).includes('prefix_only'));
  assert.ok(line, `a ${profile} line`);
  return line;
}

// An adapter as its author writes one: the example gate, served with the rule values it implements.
const ADAPTER = `
const { serve } = require('@autoreview/kit');
const { install, rules } = require('@autoreview/kit/example-gate');
serve({
  implementation: { name: 'api-test', version: '1.0.0', language: 'javascript' },
  rules,
  observes: ['sessions', 'requests', 'session-log', 'temperature'],
  install,
});
`;

/** Runs ADAPTER in a child process and exchanges `messages` with it, one reply line each but the last (stop). */
async function converse(messages) {
  const child = spawn(process.execPath, ['-e', ADAPTER], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const replies = [];
  const lines = readline.createInterface({ input: child.stdout });
  lines.on('line', (line) => replies.push(JSON.parse(line)));
  for (const message of messages) child.stdin.write(`${JSON.stringify(message)}\n`);
  child.stdin.end();
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  return { replies, stderr };
}

// One line of each profile the fixture holds, whatever their names.
for (const profile of new Set(FIXTURE_LINES.map((l) => l.profile))) {
  test(`an adapter on serve answers a ${profile} hello with its rules and decides a fixture line as the reference`, async () => {
    const line = fixtureLine(profile);
    const hello = { type: 'hello', protocol: 2, profile: line.profile, rules: line.rules, runner: 'api.test.js' };
    const decide = { type: 'decide', seq: 7, reply: line.reply, world: line.world, scenario: line.scenario };
    const { replies, stderr } = await converse([hello, decide, { type: 'stop' }]);
    assert.equal(replies.length, 2, stderr);
    const [answer, outcome] = replies;
    assert.equal(answer.type, 'hello');
    assert.equal(answer.protocol, 2);
    assert.equal(answer.canonical, true);
    assert.deepEqual(answer.profiles, []);
    assert.deepEqual(answer.rules, require('@autoreview/kit/example-gate').rules);
    for (const [rule, value] of Object.entries(line.rules)) {
      if (rule !== 'config') assert.ok(answer.rules[rule].includes(value), `${rule} ${JSON.stringify(value)}`);
    }
    assert.deepEqual(outcome, { type: 'outcome', seq: 7, outcome: line.outcome }, stderr);
  });
}

#!/usr/bin/env node
// The example gate (adapters/node/example-gate.js) with every text worded in its own way: each
// template it renders, and each its tool runtime renders (the harness's RUNTIME_TEXT), replaced by
// another sentence with the same placeholders. Its decisions are the example gate's, so it differs
// from the reference only in wording:
//   autoreview check --messages tests/adapters/own-wording.json -- node tests/adapters/own-wording.js
// passes, and the same check without --messages fails on TEXT differences only. The mapping file
// beside it says the same sentences as templates; the two are written apart, as a gate's author
// would write them. (The session log's messages are the world's, sent by the runner, and stay as
// the spec words them; so does the implementation-defined invalid-JSON message.)
'use strict';
const path = require('node:path');

const kit = path.join(__dirname, '..', '..', 'adapters', 'node');
const { serve, RUNTIME_TEXT } = require(path.join(kit, 'harness.js'));
const { install, MSG } = require(path.join(kit, 'example-gate.js'));

Object.assign(MSG, {
  finalDeny: (name) => `The reviewer blocked "${name}" for good; the tool did not run`,
  askReview: (name) => `The reviewer objects to "${name}"`,
  askReviewReason: (name, reason) => `The reviewer objects to "${name}" because ${reason}`,
  displayEn: 'The reviewer objected to this call.',
  displayEnReason: (reason) => `The reviewer objected to this call, because ${reason}`,
  displayZh: '审查者反对此次调用。',
  displayZhReason: (reason) => `审查者反对此次调用，原因是 ${reason}`,
  failed: (name, error) => `Could not review "${name}", so it was not run (${error})`,
  askFailed: (name, error) => `Could not review "${name}" (${error})`,
  displayFailedEn: (error) => `The review of this call did not finish (${error})`,
  displayFailedZh: (error) => `此次调用的审查未能完成（${error}）`,
  askCombined: (review, reason) => `${review}. Another check asks too: ${reason}`,
  displayCombinedEn: (review, reason) => `${review}\nAnother check asks too: ${reason}`,
  displayCombinedZh: (review, reason) => `${review}\n另一项检查也在询问：${reason}`,
  hint: (count, route) =>
    `Reviews on ${route} failed ${count} times running: set reviewer_route, or leave Auto (e.g. for workspace-write).`,
  hintZh: (count, route) =>
    `${route} 上的审查已连续失败 ${count} 次：请设置 reviewer_route，或离开 Auto（例如 workspace-write）。`,
  repairInstruction:
    'That answer was unreadable. Look at the same action once more and answer with the bare JSON decision object only.',
  endedDetail: (kind, code, message) => `gate: the reviewer stopped with ${kind} (${code}) saying ${message}`,
  ended: (kind) => `gate: the reviewer stopped with ${kind}`,
  afterFinish: 'gate: the reviewer kept writing after it finished',
  blocks: "gate: the reviewer's reply is not reasoning followed by one text",
  notObject: "gate: the reviewer's reply is not a single JSON object",
  repeated: "gate: the reviewer's reply names a member twice",
  protocol: "gate: the reviewer's reply is none of the decisions it may give",
  schemaNative: 'gate: no single schema describes this tool',
  schemaPtc: 'gate: no consistent schema describes this program binding',
  noRoute: 'gate: there is no reviewer model to ask',
  noCwd: 'gate: the session names no working directory',
  toolCall: 'gate: the reviewer called a tool instead of deciding',
  tooLarge: 'gate: the reviewer wrote more than 1048576 bytes',
  noDecision: "gate: the reviewer's reply holds no decision",
  ambiguous: "gate: the reviewer's reply holds decisions that disagree",
  malformed: "gate: the reviewer's reply holds a broken decision",
  conflict: 'gate: the reviewer allowed beside other braces',
  allowProse: 'gate: the reviewer allowed beside prose',
  deadline: (ms) => `gate: no decision within ${ms} milliseconds`,
  closing: 'gate: shutting down, Auto cannot be chosen now',
});

Object.assign(RUNTIME_TEXT, {
  refused: (message) => `Refused — ${message}`,
  userRejected: (name) => `a person said no to "${name}"`,
  approvalCancelled: (name) => `the question about "${name}" was withdrawn`,
  approvalUnavailable: (name) => `"${name}" needs a person's yes, and nobody can be asked`,
  noAgent: (name) => `"${name}" needs a person's yes, and no agent can carry the question`,
  abortedBeforeDispatch: 'the call was stopped before it was sent',
});

serve({
  implementation: { name: 'example-gate-own-wording', version: '0.2.0', language: 'javascript' },
  profiles: ['baseline', 'resilient'],
  observes: ['sessions', 'requests', 'session-log', 'temperature', 'unfinished-stream', 'confinement', 'body-approvals'],
  install,
});

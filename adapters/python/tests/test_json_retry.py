"""The rule value ``asks_again: json-retry`` and the config member ``max_json_retries``
(AR-JSON-RETRY-1..3, the 0.2.x gate): the kit decodes and lists them, and the example gate asks
again after invalid JSON only, with the reminder, up to the configured number."""

import unittest
from unittest import mock

from kit_path import call, rules_of, scenario, world

from autoreview_kit import OBSERVABLES, RULE_VALUES, run_input
from autoreview_kit.example_gate import MSG, REVIEW_POLICY, install
from autoreview_kit.rules import check_rules, implemented_rules
from autoreview_kit.scenario import decode
from autoreview_kit.world import ReviewerClient

ALLOW = '{"risk":"low","decision":"allow"}'
PROSE = "The command only lists files, so it is low risk: allow."
NOT_JSON = "auto-review: reviewer output must be valid JSON"
REMINDER = (
    "Your previous response was not valid JSON. Review the same pending action under REVIEW_POLICY. "
    "Return exactly one JSON object matching its risk/decision rules. Do not include analysis, Markdown, "
    "or surrounding prose."
)

#: The 0.2.x gate's rules (the contract of issue 42), written out rather than read from a profile
#: file, so these tests hold the gate to them whatever the runner ships.
SHIPPED_0_2 = {
    "reader": "strict",
    "failure_text": "javascript",
    "asks_again": "json-retry",
    "deadline": False,
    "counts_failures": False,
    "session_id_in_requests": False,
    "route": "session",
    "schema": "header",
    "working_directory": "deployment-fallback",
    "failures": "deny",
    "preset_read": "at-start",
    "confinement": True,
    "body_approvals": "allowed-call",
    "config": ["temperature", "max_json_retries"],
}


def attempts(*texts):
    return [{"text": t, "delay_ms": 0} for t in texts]


def blocks(*texts, finish="stop"):
    """A blocks attempt, written out as the canonical form writes it."""
    return {"blocks": [{"type": "text", "text": t} for t in texts], "finish": finish, "data_after_finish": False, "delay_ms": 0}


def decide(reviewer, rules=SHIPPED_0_2, config=None, **members):
    """The outcome of one call whose reviewer answers ``reviewer`` (attempts, in order), and the
    keyword arguments of each reviewer request the gate made."""
    sc = scenario(call(reviewer=reviewer, **members), config=config or {})
    sent = []
    original = ReviewerClient.request

    async def spy(self, **request):
        sent.append(request)
        return await original(self, **request)

    with mock.patch.object(ReviewerClient, "request", spy):
        outcome = run_input(sc, install, world=world(sc), rules=dict(rules), reply="call")
    return outcome, sent


class Kit(unittest.TestCase):
    def test_the_rule_value_and_the_observable_are_listed(self):
        self.assertIn("json-retry", RULE_VALUES["asks_again"])
        self.assertEqual(implemented_rules({"asks_again": ("json-retry",)}), {"asks_again": ["json-retry"]})
        self.assertEqual(check_rules(SHIPPED_0_2)["asks_again"], "json-retry")
        self.assertIn("json-retries", OBSERVABLES)

    def decoded(self, **config):
        sc = scenario(config=config)
        return decode(sc, world(sc))["config"].max_json_retries

    def test_decode_defaults_to_one_and_takes_0_to_5(self):
        self.assertEqual(self.decoded(), 1)
        for n in (0, 3, 5):
            self.assertEqual(self.decoded(max_json_retries=n), n)

    def test_decode_refuses_anything_else_naming_the_member_and_what_was_expected(self):
        for bad, shown in ((6, "6"), (-1, "-1"), (1.5, "1.5"), (True, "true"), ("1", '"1"'), (None, "null")):
            with self.subTest(bad=bad), self.assertRaises(ValueError) as caught:
                self.decoded(max_json_retries=bad)
            self.assertIn(f"config.max_json_retries is {shown}, expected a whole number from 0 to 5", str(caught.exception))


class Gate(unittest.TestCase):
    def failure_of(self, outcome):
        return outcome["review"]["failure"]

    def repairs(self, outcome):
        return [r["repair"] for r in outcome["review"]["requests"]]

    def test_prose_then_a_decision_is_allowed_after_a_repair_with_the_reminder(self):
        outcome, sent = decide(attempts(PROSE, ALLOW), config={"temperature": 0.5})
        self.assertEqual(outcome["listener"], {"kind": "allow"})
        self.assertTrue(outcome["result"]["executed"])
        self.assertEqual(self.repairs(outcome), [False, True])
        self.assertEqual(outcome["trace"][:2], ["review", "review"])
        self.assertEqual(MSG.JSON_RETRY_REMINDER, REMINDER)
        self.assertEqual([r["system"] for r in sent], [REVIEW_POLICY, f"{REVIEW_POLICY}\n\n{REMINDER}"])
        # The same request otherwise: route, temperature, messages.
        for member in ("provider", "model", "temperature", "messages"):
            self.assertEqual(sent[0][member], sent[1][member], member)
        self.assertEqual(sent[1]["temperature"], 0.5)

    def test_invalid_json_until_the_retries_are_spent_fails_with_the_exact_message(self):
        outcome, _ = decide(attempts(PROSE, "still prose"))  # max_json_retries left at 1
        self.assertEqual(outcome["review"]["attempts"], 2)
        self.assertEqual(self.failure_of(outcome), {"class": "protocol", "message": NOT_JSON})
        self.assertEqual(outcome["listener"]["kind"], "deny")
        self.assertEqual(
            outcome["listener"]["reason"],
            f'Auto review of tool "pwsh" failed; its body was not executed: {NOT_JSON}',
        )
        self.assertFalse(outcome["result"]["executed"])

    def test_the_configured_number_bounds_the_requests(self):
        for n in (0, 1, 3, 5):
            with self.subTest(max_json_retries=n):
                outcome, _ = decide(attempts(PROSE), config={"max_json_retries": n})
                self.assertEqual(outcome["review"]["attempts"], n + 1)
                self.assertEqual(self.repairs(outcome), [False] + [True] * n)
                self.assertEqual(self.failure_of(outcome)["message"], NOT_JSON)
        outcome, _ = decide(attempts(PROSE, PROSE, PROSE, ALLOW), config={"max_json_retries": 3})
        self.assertEqual((outcome["review"]["attempts"], outcome["listener"]), (4, {"kind": "allow"}))

    def test_strict_json_whatever_python_would_take(self):
        # NaN, a non-JSON space, a byte-order mark, a fence: not JSON.parse's JSON, so retried.
        for reply in ('{"risk":NaN,"decision":"deny"}', ALLOW + "\u00a0", "\ufeff" + ALLOW, f"```json\n{ALLOW}\n```"):
            with self.subTest(reply=reply):
                outcome, _ = decide(attempts(reply, ALLOW))
                self.assertEqual((outcome["review"]["attempts"], outcome["listener"]), (2, {"kind": "allow"}))
        outcome, _ = decide(attempts(f" \t\r\n{ALLOW}\n "))  # JSON's own whitespace is JSON
        self.assertEqual((outcome["review"]["attempts"], outcome["listener"]), (1, {"kind": "allow"}))

    def test_nothing_but_invalid_json_is_asked_again(self):
        cases = {
            "an object of no shape": (attempts('{"risk":"low"}', ALLOW), MSG.PROTOCOL),
            "JSON that is not an object": (attempts("[1]", ALLOW), MSG.NOT_OBJECT),
            "a repeated member": (attempts('{"risk":"low","decision":"allow","risk":"low"}', ALLOW), MSG.REPEATED),
            "a provider's error finish": (
                [{"finish": {"kind": "error", "code": "UNKNOWN", "message": "overloaded"}, "delay_ms": 0}, *attempts(ALLOW)],
                "auto-review: reviewer ended with error UNKNOWN: overloaded",
            ),
            "prose cut at max-tokens": ([blocks(PROSE, finish="max-tokens"), *attempts(ALLOW)], MSG.ended("max-tokens")),
            "prose in two text blocks": ([blocks("a", "b"), *attempts(ALLOW)], MSG.BLOCKS),
            "a stream without a finish": ([blocks(PROSE, finish=None), *attempts(ALLOW)], MSG.NO_FINISH),
            "a request that threw": ([{"throw": "boom", "delay_ms": 0}, *attempts(ALLOW)], "boom"),
        }
        for name, (reviewer, message) in cases.items():
            with self.subTest(name):
                outcome, _ = decide(reviewer, config={"max_json_retries": 5})
                self.assertEqual(outcome["review"]["attempts"], 1)
                self.assertEqual(self.failure_of(outcome)["message"], message)

    def test_no_retry_once_a_signal_aborted_the_review(self):
        for abort in ("caller-during-review", "lifecycle-after-review"):
            with self.subTest(abort=abort):
                outcome, _ = decide(attempts(PROSE, ALLOW), abort=abort, config={"max_json_retries": 5})
                self.assertEqual(outcome["review"]["attempts"], 1)
                self.assertNotEqual(outcome["listener"], {"kind": "allow"})

    def test_a_profile_that_does_not_read_the_member_asks_again_once(self):
        outcome, _ = decide(attempts(PROSE), rules={**SHIPPED_0_2, "config": ["temperature"]}, config={"max_json_retries": 0})
        self.assertEqual(outcome["review"]["attempts"], 2)

    def test_the_baseline_and_the_resilient_profile_keep_their_own_ways(self):
        outcome, _ = decide(attempts(PROSE, ALLOW), rules=rules_of("baseline"), config={"max_json_retries": 5})
        self.assertEqual(outcome["review"]["attempts"], 1)
        self.assertNotEqual(self.failure_of(outcome)["message"], NOT_JSON)
        # The resilient profile repairs an object of no shape too, with its own instruction.
        outcome, sent = decide(attempts('{"risk":"low"}', ALLOW), rules=rules_of("resilient"), config={"max_json_retries": 0})
        self.assertEqual((outcome["review"]["attempts"], outcome["listener"]), (2, {"kind": "allow"}))
        self.assertEqual(sent[1]["system"], f"{REVIEW_POLICY}\n\n{MSG.REPAIR_INSTRUCTION}")


if __name__ == "__main__":
    unittest.main()

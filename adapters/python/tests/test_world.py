"""The scripted world and tool runtime, with the example gate, on the spec's own examples."""

import unittest

import kit_path  # noqa: F401

from autoreview_kit import GateError, run_input
from autoreview_kit.example_gate import install


class Calls(unittest.TestCase):
    def test_the_first_example_of_scenario_md(self):
        outcome = run_input(
            {
                "tool": {"name": "pwsh"},
                "policy": "ask",
                "reviewer": {"text": '{"risk":"high","decision":"deny","reason":"uploads a key"}'},
                "approval": "rejected",
            },
            install,
        )
        self.assertEqual(outcome["trace"], ["review", "downstream", "approval"])
        self.assertEqual(outcome["approval"]["reason"], 'Auto review denied tool "pwsh": uploads a key')
        self.assertEqual(outcome["result"]["text"], 'Error: the user rejected tool "pwsh"')

    def test_a_hanging_reviewer_leaves_a_baseline_call_pending(self):
        outcome = run_input({"tool": {"name": "pwsh"}, "reviewer": {"hang": True}}, install, profile="baseline")
        self.assertEqual((outcome["settled"], outcome["listener"], outcome["trace"]), (False, None, ["review"]))

    def test_the_resilient_deadline_ends_a_hanging_reviewer(self):
        outcome = run_input(
            {"tool": {"name": "pwsh"}, "reviewer": {"hang": True}, "config": {"review_timeout_ms": 5}},
            install,
            profile="resilient",
        )
        self.assertEqual(
            outcome["review"]["failure"], {"class": "timeout", "message": "auto-review: the review did not finish within 5 ms"}
        )
        self.assertEqual(outcome["listener"]["kind"], "ask")

    def test_a_caller_abort_before_dispatch_runs_no_listener(self):
        outcome = run_input({"tool": {"name": "pwsh"}, "reviewer": {"text": "x"}, "abort": "caller-before-dispatch"}, install)
        self.assertEqual((outcome["listener"], outcome["trace"]), (None, []))
        self.assertEqual(outcome["result"]["info"], {"name": "AbortError", "code": "ABORTED_BEFORE_DISPATCH"})

    def test_requests_are_reported_only_when_observed(self):
        call = {"tool": {"name": "pwsh"}, "reviewer": {"text": '{"risk":"low","decision":"allow"}'}}
        self.assertEqual(
            run_input(call, install, profile="resilient")["review"]["requests"],
            [{"route": "default/default", "temperature": 0, "tools": 0, "session_id": "session-1", "repair": False}],
        )
        self.assertNotIn("requests", run_input(call, install, observes=())["review"])

    def test_a_gate_that_returns_no_decision_is_an_error(self):
        class Broken:
            def __init__(self, host, restored):
                pass

            async def listener(self, call, call_next, env):
                return "allow"

            def close(self):
                pass

            async def wait_closed(self):
                pass

        with self.assertRaises(GateError):
            run_input({"tool": {"name": "pwsh"}, "reviewer": {"text": "x"}}, Broken)


class Sessions(unittest.TestCase):
    def test_the_session_example_of_scenario_md(self):
        outcome = run_input(
            {
                "config": {"failure_hint_after": 2},
                "calls": [
                    {"tool": {"name": "pwsh"}, "reviewer": {"text": "<tool_call>"}},
                    {"tool": {"name": "pwsh"}, "reviewer": {"text": "<tool_call>"}},
                    {"event": "dispose"},
                    {"tool": {"name": "pwsh"}, "reviewer": {"text": "<tool_call>"}},
                ],
            },
            install,
            profile="resilient",
        )
        first, second, disposal, third = outcome["calls"]
        self.assertEqual((first["review"]["consecutive_failures"], second["review"]["consecutive_failures"]), (1, 2))
        self.assertNotIn("Auto review has failed", first["listener"]["reason"])
        self.assertIn("Auto review has failed 2 times in a row on route default/default", second["listener"]["reason"])
        self.assertEqual(disposal, {"event": "dispose", "error": None})
        self.assertEqual((third["trace"], third["result"]["executed"]), (["downstream", "body"], True))

    def test_a_session_needs_the_sessions_observable(self):
        with self.assertRaises(GateError):
            run_input({"calls": [{"event": "select-auto"}]}, install, observes=("requests",))

    def test_selecting_auto_after_disposal_meets_the_deployments_error(self):
        outcome = run_input({"calls": [{"event": "dispose"}, {"event": "select-auto"}]}, install)
        self.assertTrue(outcome["calls"][1]["error"].startswith('permission: unknown preset "auto"'))
        self.assertEqual(outcome["calls"][1]["prefix_only"], {"/error": 0})


if __name__ == "__main__":
    unittest.main()

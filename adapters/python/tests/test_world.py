"""The scripted world and tool runtime, with the example gate, on the spec's own examples."""

import unittest

from kit_path import call, rules_of, scenario, text, world

from autoreview_kit import GateError, run_input
from autoreview_kit.example_gate import install


def decide(sc, install, profile="resilient", **options):
    """``run_input`` of ``sc`` under the rules of ``profile``, with the world's answers at their
    defaults."""
    return run_input(sc, install, world=world(sc), rules=rules_of(profile), **options)


class Calls(unittest.TestCase):
    def test_the_first_example_of_scenario_md(self):
        outcome = decide(
            scenario(
                call(reviewer=text('{"risk":"high","decision":"deny","reason":"uploads a key"}'), approval="rejected"),
                policy={"override": "ask", "default": "ask"},
            ),
            install,
            reply="call",
        )
        self.assertEqual(outcome["trace"], ["review", "downstream", "approval"])
        self.assertEqual(outcome["approval"]["reason"], 'Auto review denied tool "pwsh": uploads a key')
        self.assertEqual(outcome["result"]["text"], 'Error: the user rejected tool "pwsh"')

    def test_a_hanging_reviewer_leaves_a_baseline_call_pending(self):
        outcome = decide(scenario(call(reviewer=[{"hang": True}])), install, profile="baseline", reply="call")
        self.assertEqual((outcome["settled"], outcome["listener"], outcome["trace"]), (False, None, ["review"]))

    def test_the_resilient_deadline_ends_a_hanging_reviewer(self):
        outcome = decide(
            scenario(call(reviewer=[{"hang": True}]), config={"review_timeout_ms": 5}),
            install,
            profile="resilient",
            reply="call",
        )
        self.assertEqual(
            outcome["review"]["failure"], {"class": "timeout", "message": "auto-review: the review did not finish within 5 ms"}
        )
        self.assertEqual(outcome["listener"]["kind"], "ask")

    def test_a_caller_abort_before_dispatch_runs_no_listener(self):
        outcome = decide(scenario(call(reviewer=text("x"), abort="caller-before-dispatch")), install, reply="call")
        self.assertEqual((outcome["listener"], outcome["trace"]), (None, []))
        self.assertEqual(outcome["result"]["info"], {"name": "AbortError", "code": "ABORTED_BEFORE_DISPATCH"})

    def test_requests_are_reported_only_when_observed(self):
        allowed = scenario()
        self.assertEqual(
            decide(allowed, install, profile="resilient", reply="call")["review"]["requests"],
            [{"route": "default/default", "temperature": 0, "tools": 0, "session_id": "session-1", "repair": False}],
        )
        self.assertNotIn("requests", decide(allowed, install, observes=(), reply="call")["review"])

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
            decide(scenario(call(reviewer=text("x"))), Broken, reply="call")


class Rules(unittest.TestCase):
    def test_the_gate_gets_the_rules_and_the_profiles_name(self):
        seen = []

        class Looking:
            def __init__(self, host, restored):
                seen.append((host.profile, dict(host.rules)))
                self._unregister = host.presets.register_auto()

            async def listener(self, call, call_next, env):
                seen.append((env.profile, dict(env.rules)))
                return await call_next()

            def close(self):
                self._unregister()

            async def wait_closed(self):
                pass

        rules = rules_of("baseline")
        run_input(scenario(), Looking, world=world(scenario()), profile="mine", rules=rules, reply="call")
        want = {**rules, "config": tuple(rules["config"])}
        self.assertEqual(seen, [("mine", want), ("mine", want)])
        seen.clear()
        run_input(scenario(), Looking, world=world(scenario()), rules=rules, reply="call")
        self.assertEqual(seen[0], (None, want))

    def test_the_count_of_failures_is_reported_where_the_rules_count_them(self):
        failing = scenario(call(reviewer=text("<tool_call>")))
        for counts in (False, True):
            rules = {**rules_of("baseline"), "counts_failures": counts}
            outcome = run_input(failing, install, world=world(failing), rules=rules, reply="call")
            self.assertEqual(outcome["review"]["consecutive_failures"], 1 if counts else None)

    def test_rules_that_lack_a_rule_are_refused_saying_where_to_get_them(self):
        rules = rules_of("baseline")
        del rules["preset_read"]
        with self.assertRaises(ValueError) as caught:
            run_input(scenario(), install, world=world(scenario()), rules=rules, reply="call")
        self.assertIn("preset_read", str(caught.exception))
        self.assertIn("autoreview profiles --json", str(caught.exception))

    def test_a_profiles_name_alone_is_refused_saying_where_rules_come_from(self):
        # Kit 0.3.0 knows no profile by name: not the shipped ones, not another.
        for profile in ("baseline", "resilient", "mine", None):
            with self.assertRaises(ValueError) as caught:
                run_input(scenario(), install, world=world(scenario()), profile=profile, reply="call")
            self.assertIn("run_input: no rules given", str(caught.exception))
            self.assertIn("autoreview profiles --json", str(caught.exception))


class Sessions(unittest.TestCase):
    def test_the_session_example_of_scenario_md(self):
        failing = call(reviewer=text("<tool_call>"))
        outcome = decide(
            scenario(failing, failing, {"event": "dispose", "reselect": False}, failing, config={"failure_hint_after": 2}),
            install,
            profile="resilient",
        )
        first, second, disposal, third = outcome["calls"]
        self.assertEqual((first["review"]["consecutive_failures"], second["review"]["consecutive_failures"]), (1, 2))
        self.assertNotIn("Auto review has failed", first["listener"]["reason"])
        self.assertIn("Auto review has failed 2 times in a row on route default/default", second["listener"]["reason"])
        self.assertEqual(disposal, {"event": "dispose", "error": None})
        self.assertEqual((third["trace"], third["result"]["executed"]), (["downstream", "body"], True))

    def test_selecting_auto_after_disposal_meets_the_deployments_error(self):
        outcome = decide(scenario({"event": "dispose", "reselect": False}, {"event": "select-auto", "reselect": False}), install)
        self.assertTrue(outcome["calls"][1]["error"].startswith('permission: unknown preset "auto"'))
        self.assertEqual(outcome["calls"][1]["prefix_only"], {"/error": 0})


if __name__ == "__main__":
    unittest.main()

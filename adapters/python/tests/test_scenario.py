"""Strict scenario reading: unknown members and bad values are refused naming the member and
where it is; the defaults of spec/scenario.md are applied; unrealizable scenarios are refused."""

import unittest

import kit_path  # noqa: F401

from autoreview_kit.scenario import (
    CallSpec,
    Config,
    EventSpec,
    Route,
    ScenarioError,
    SessionSpec,
    TextAttempt,
    read_input,
)

CALL = {"tool": {"name": "pwsh"}, "reviewer": {"text": "{}"}}


def refusal(raw):
    with unittest.TestCase().assertRaises(ScenarioError) as caught:
        read_input(raw)
    return str(caught.exception)


class UnknownMembers(unittest.TestCase):
    def test_a_misspelled_member_is_refused_with_its_path(self):
        self.assertEqual(
            refusal({**CALL, "tool": {"name": "pwsh", "cal": "native"}}),
            "tool.cal: unknown member (allowed: name, call)",
        )

    def test_an_unknown_top_level_member_is_named(self):
        self.assertTrue(refusal({**CALL, "approvals": "rejected"}).startswith("approvals: unknown member"))

    def test_an_unknown_member_deep_in_a_session_names_the_item_and_the_block(self):
        raw = {"calls": [CALL, {"tool": {"name": "x"}, "reviewer": [{"text": "a"}, {"blocks": [{"type": "text", "txt": "a"}]}]}]}
        self.assertTrue(refusal(raw).startswith("calls[1].reviewer[1].blocks[0].txt: unknown member"))

    def test_a_retired_configuration_member_is_refused(self):
        self.assertTrue(refusal({**CALL, "config": {"strict_allow": True}}).startswith("config.strict_allow: unknown member"))

    def test_a_session_member_inside_a_call_is_refused(self):
        self.assertTrue(
            refusal({"calls": [{**CALL, "policy": "ask"}]}).startswith("calls[0].policy: `policy` belongs to the session")
        )


class Values(unittest.TestCase):
    def test_a_boolean_is_not_a_count(self):
        self.assertIn("config.repair_attempts", refusal({**CALL, "config": {"repair_attempts": True}}))

    def test_a_fractional_count_is_refused(self):
        self.assertIn("config.review_timeout_ms", refusal({**CALL, "config": {"review_timeout_ms": 1.0}}))

    def test_out_of_range_is_refused_not_defaulted(self):
        self.assertIn("config.transport_retries", refusal({**CALL, "config": {"transport_retries": 6}}))

    def test_a_configured_route_must_be_complete(self):
        self.assertIn("config.reviewer_route", refusal({**CALL, "config": {"reviewer_route": {"provider": "", "model": "m"}}}))

    def test_an_empty_reviewer_script_is_refused(self):
        self.assertTrue(refusal({**CALL, "reviewer": []}).startswith("reviewer:"))

    def test_a_scenario_that_is_not_an_object_is_refused(self):
        self.assertTrue(refusal([CALL]).startswith("scenario:"))


class Defaults(unittest.TestCase):
    def test_a_single_call_gets_the_documented_defaults(self):
        sc = read_input(CALL)
        self.assertFalse(sc.is_session)
        self.assertEqual(sc.preset, "auto")
        self.assertEqual((sc.policy.override, sc.policy.default), (None, "ask"))
        self.assertEqual(sc.session, SessionSpec("session-1", Route("default", "default"), 0, True, True))
        self.assertEqual(sc.config, Config("ask", 1, 1, 60000, None, 3))
        (call,) = sc.items
        self.assertIsInstance(call, CallSpec)
        self.assertEqual(
            (call.kind, call.agent, call.log, call.approval, call.abort), ("native", True, "consistent", "unavailable", "none")
        )
        self.assertEqual((call.schema_header, call.schema_registry), ("present", "present"))
        self.assertEqual(call.downstream.kind, "allow")
        self.assertEqual(call.reviewer, (TextAttempt("{}", 0),))

    def test_policy_and_schema_shorthands_expand(self):
        sc = read_input({**CALL, "policy": "never", "schema": "registry-only"})
        self.assertEqual((sc.policy.override, sc.policy.default), ("never", "ask"))
        self.assertEqual((sc.items[0].schema_header, sc.items[0].schema_registry), ("missing", "present"))

    def test_a_session_keeps_its_items_in_order(self):
        sc = read_input({"id": "s", "calls": [CALL, {"event": "dispose", "reselect": True}, {"event": "install"}]})
        self.assertTrue(sc.is_session)
        self.assertEqual([type(i) for i in sc.items], [CallSpec, EventSpec, EventSpec])
        self.assertTrue(sc.items[1].reselect)


class Unrealizable(unittest.TestCase):
    def test_rz1_a_run_code_call_is_named_run_code(self):
        self.assertIn("RZ-1", refusal({**CALL, "tool": {"name": "pwsh", "call": "run-code"}}))

    def test_rz2_no_other_call_is_named_run_code(self):
        self.assertIn("RZ-2", refusal({**CALL, "tool": {"name": "run_code"}}))

    def test_rz4_a_log_fact_concerns_its_call_kind(self):
        self.assertIn("RZ-4", refusal({**CALL, "log": "ptc-call-disagrees"}))

    def test_rz5_a_second_disposal_needs_an_installation(self):
        self.assertIn("RZ-5", refusal({"calls": [{"event": "dispose"}, {"event": "dispose"}]}))

    def test_rz6_a_second_installation_is_refused(self):
        self.assertIn("RZ-6", refusal({"calls": [{"event": "install"}]}))


if __name__ == "__main__":
    unittest.main()

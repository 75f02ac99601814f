"""The outcome builder: the shape of spec/scenario.md, and prefix_only at the right places."""

import unittest

import kit_path  # noqa: F401

from autoreview_kit import Allow, Ask, Cancel, Deny, DisplayReason
from autoreview_kit.outcome import (
    CallRecord,
    FailureReport,
    build_outcome,
    listener_record,
    prefix_only,
)


class Decisions(unittest.TestCase):
    def test_decisions_take_the_outcome_form(self):
        self.assertEqual(listener_record(Allow()), {"kind": "allow"})
        self.assertEqual(listener_record(Cancel()), {"kind": "cancel"})
        self.assertEqual(listener_record(Deny("no")), {"kind": "deny", "reason": "no"})
        self.assertEqual(listener_record(Deny("no", {"code": "X"})), {"kind": "deny", "reason": "no", "info": {"code": "X"}})
        self.assertEqual(listener_record(Ask()), {"kind": "ask"})
        self.assertEqual(
            listener_record(Ask("r", DisplayReason("en", "zh"))),
            {"kind": "ask", "reason": "r", "display_reason": {"en": "en", "zh": "zh"}},
        )

    def test_something_that_is_not_a_decision_is_refused(self):
        for bad in ({"kind": "allow"}, None, Deny(None)):
            with self.assertRaises(TypeError):
                listener_record(bad)


class PrefixOnly(unittest.TestCase):
    def test_positions_count_unicode_scalar_values(self):
        message = "auto-review: odd"
        # "🚀" is one scalar value (two UTF-16 units): the message starts at 10, not 11.
        text = f'tool "🚀": {message}'
        self.assertEqual(
            prefix_only(message, [("/listener/reason", text), ("/result/text", None), ("/approval/reason", "elsewhere")]),
            {"/review/failure/message": 0, "/listener/reason": 10},
        )


class Build(unittest.TestCase):
    def test_an_unsettled_call_has_no_result_and_members_in_order(self):
        rec = CallRecord("c1", trace=["review"], attempts=1, routes=["p/m"])
        outcome = build_outcome(rec, requests=False)
        self.assertEqual(list(outcome), ["id", "settled", "listener", "approval", "result", "review", "trace"])
        self.assertEqual(outcome["settled"], False)
        self.assertEqual(outcome["result"], {"executed": False, "text": None, "info": None})
        self.assertEqual(list(outcome["review"]), ["attempts", "failure", "routes", "consecutive_failures"])

    def test_an_implementation_defined_failure_marks_every_text_carrying_it(self):
        message = "auto-review: reviewer output is not valid JSON (x)"
        reason = f'Auto review of tool "t" failed; its body was not executed: {message}'
        rec = CallRecord(
            None,
            attempts=1,
            failure=FailureReport("protocol", message, implementation_defined=True),
            listener={"kind": "deny", "reason": reason},
            result={"executed": False, "text": f"Error: {reason}", "info": None},
        )
        at = len('Auto review of tool "t" failed; its body was not executed: ')
        self.assertEqual(
            build_outcome(rec)["prefix_only"],
            {"/listener/reason": at, "/result/text": at + len("Error: "), "/review/failure/message": 0},
        )

    def test_a_normative_failure_marks_nothing(self):
        rec = CallRecord(None, failure=FailureReport("route", "auto-review: no complete request-header route is available"))
        self.assertNotIn("prefix_only", build_outcome(rec))

    def test_a_thrown_approval_request_is_normative_up_to_error_colon(self):
        rec = CallRecord(None, approval_threw=True, result={"executed": False, "text": "Error: outside a turn", "info": None})
        self.assertEqual(build_outcome(rec)["prefix_only"], {"/result/text": 7})


if __name__ == "__main__":
    unittest.main()

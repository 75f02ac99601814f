"""The observable ``body-approvals`` (spec chapter 6, AR-APPROVAL-7 and -8; spec/scenario.md, the
call member ``body``): the decoder's ``body``, the world's body steps and approval service (its own
answers, its request listeners, the human), the post-execute hook, the outcome's
``body_approvals``, and the example gate under both values of the rule ``body_approvals``, on the
fixed cases BA-1..BA-8."""

import copy
import unittest

from kit_path import FIXTURE, call, rules_of, scenario, text, world

from autoreview_kit import GateError, run_input
from autoreview_kit.example_gate import install
from autoreview_kit.protocol import _covers
from autoreview_kit.rules import RULE_VALUES, check_rules, implemented_rules
from autoreview_kit.scenario import decode

ALLOW = '{"risk":"low","decision":"allow"}'
DENY = '{"risk":"high","decision":"deny","reason":"not authorized"}'
VALUES = ("human", "allowed-call")
PROFILES = ("baseline", "resilient")


def rules(profile, value):
    return {**rules_of(profile), "body_approvals": value}


def decide(sc, value="allowed-call", profile="resilient", gate=install, **options):
    return run_input(sc, gate, world=world(sc), rules=rules(profile, value), **options)


def raised(call_id, reason="escalate sandbox to danger-full-access: test", answer="rejected"):
    """A ``raise`` step; ``answer=None`` leaves the answer to the call's ``approval``."""
    request = {"call_id": call_id, "reason": reason}
    if answer is not None:
        request["answer"] = answer
    return {"raise": request}


def entry(call_id, answered_by, answer, reason="escalate sandbox to danger-full-access: test"):
    return {"call_id": call_id, "reason": reason, "answered_by": answered_by, "answer": answer}


class Decoder(unittest.TestCase):
    def decoded(self, *items):
        sc = scenario(*items)
        return decode(sc, world(sc))["calls"]

    def refused(self, *items):
        sc = scenario(*items)
        with self.assertRaises(ValueError) as caught:
            decode(sc, world(sc))
        return str(caught.exception)

    def test_a_call_without_a_body_has_an_empty_one_and_events_have_none(self):
        first, event, body = self.decoded(call(), {"event": "install", "reselect": False}, call(body=[{"leave_auto": "workspace-write"}, raised("finished", answer=None)]))
        self.assertEqual(first["body"], [])
        self.assertNotIn("body", event)
        self.assertEqual(body["body"], [{"leave_auto": "workspace-write"}, {"raise": {"call_id": "finished", "reason": "escalate sandbox to danger-full-access: test"}}])

    def test_each_malformed_step_is_refused_saying_where_and_what_was_expected(self):
        for body, where, expected in [
            ({"raise": {}}, "calls[0].body", "an array of steps"),
            ([{"raise": {"call_id": "own", "reason": "r"}, "leave_auto": "workspace-write"}], "calls[0].body[0]", "exactly one member"),
            ([{"leave": "workspace-write"}], "calls[0].body[0]", '"raise" or "leave_auto"'),
            (["own"], "calls[0].body[0]", "exactly one member"),
            ([{"leave_auto": "read-only"}], "calls[0].body[0].leave_auto", "workspace-write, danger-full-access"),
            ([{"leave_auto": "auto"}], "calls[0].body[0].leave_auto", "workspace-write, danger-full-access"),
            ([{"raise": "own"}], "calls[0].body[0].raise", "call_id"),
            ([{"raise": {"reason": "r"}}], "calls[0].body[0].raise", "no call_id"),
            ([{"raise": {"call_id": "own"}}], "calls[0].body[0].raise", "no reason"),
            ([{"raise": {"call_id": "own", "reason": "r", "display_reason": "x"}}], "calls[0].body[0].raise", "only call_id, reason and answer"),
            ([raised("call-1")], "calls[0].body[0].raise.call_id", "own, none, unreviewed, finished"),
            ([raised(None)], "calls[0].body[0].raise.call_id", "own, none, unreviewed, finished"),
            ([{"raise": {"call_id": "own", "reason": 7}}], "calls[0].body[0].raise.reason", "a string"),
            ([raised("own", answer="throws")], "calls[0].body[0].raise.answer", "allowed-once, rejected, cancelled, unavailable"),
            ([{"leave_auto": "workspace-write"}, raised("own", answer="allow")], "calls[0].body[1].raise.answer", "allowed-once"),
        ]:
            with self.subTest(body=body):
                message = self.refused(call(body=body))
                self.assertIn("not a canonical scenario", message)
                self.assertIn(where, message)
                self.assertIn(expected, message)

    def test_the_realizability_rules_are_held(self):
        # `finished` names the most recent earlier call item; an event is none.
        self.assertIn("unrealizable", self.refused(call(body=[raised("finished")])))
        self.assertIn("calls[1]", self.refused({"event": "install", "reselect": False}, call(body=[raised("finished")])))
        self.decoded(call(), {"event": "install", "reselect": False}, call(body=[raised("finished")]))
        # No step at all without an agent (RZ-12), no raise where the call's approval throws.
        self.assertIn("RZ-12", self.refused(call(agent=False, body=[raised("none")])))
        self.assertIn("RZ-12", self.refused(call(agent=False, body=[{"leave_auto": "danger-full-access"}])))
        self.assertIn("RZ-12", self.refused(call(approval="throws", body=[raised("own", answer=None)])))
        self.assertIn("RZ-12", self.refused(call(approval="throws", body=[raised("own", answer="rejected")])))
        self.decoded(call(approval="throws", body=[{"leave_auto": "workspace-write"}]))


# The fixed cases of the contract, each with what it expects of the call whose body raises under
# each value of the rule: (scenario, {value: (trace, body_approvals, approval answer or None)}).
HUMAN_REJECTED = [entry("own", "human", "rejected")]


def fixed_cases():
    asked = {"kind": "ask", "reason": "hook wants approval"}
    return {
        "BA-1": (
            scenario(call(reviewer=text(ALLOW), body=[raised("own")])),
            {
                "allowed-call": (["review", "downstream", "body", "raised"], [entry("own", "gate", "allowed-once")], None),
                "human": (["review", "downstream", "body", "raised"], HUMAN_REJECTED, None),
            },
        ),
        "BA-2": (
            scenario(call(reviewer=text(DENY), approval="allowed-once", body=[raised("own")]), policy={"override": "ask", "default": "ask"}),
            dict.fromkeys(VALUES, (["review", "downstream", "approval", "body", "raised"], HUMAN_REJECTED, "allowed-once")),
        ),
        "BA-3": (
            scenario(call(reviewer=text(ALLOW), downstream=asked, approval="allowed-once", body=[raised("own")])),
            dict.fromkeys(VALUES, (["review", "downstream", "approval", "body", "raised"], HUMAN_REJECTED, "allowed-once")),
        ),
        "BA-4": (
            scenario(call(reviewer=text(ALLOW), body=[raised("none"), raised("unreviewed")])),
            dict.fromkeys(
                VALUES,
                (["review", "downstream", "body", "raised", "raised"], [entry("none", "human", "rejected"), entry("unreviewed", "human", "rejected")], None),
            ),
        ),
        "BA-5": (
            scenario(call(reviewer=text(ALLOW), body=[{"leave_auto": "workspace-write"}, raised("own")])),
            dict.fromkeys(VALUES, (["review", "downstream", "body", "raised"], HUMAN_REJECTED, None)),
        ),
        "BA-6": (
            scenario(call(reviewer=text(ALLOW), body=[raised("own", answer=None)]), policy={"override": "never", "default": "ask"}),
            dict.fromkeys(VALUES, (["review", "downstream", "body", "raised"], [entry("own", "service", "rejected")], None)),
        ),
        "BA-7": (
            scenario(call(reviewer=text(ALLOW)), call(reviewer=text(ALLOW), body=[raised("finished")])),
            dict.fromkeys(VALUES, (["review", "downstream", "body", "raised"], [entry("finished", "human", "rejected")], None)),
        ),
        "BA-8": (
            scenario(call(tool={"name": "run_code", "call": "run-code"}, approval="allowed-once", body=[raised("own", answer=None)])),
            dict.fromkeys(VALUES, (["downstream", "body", "raised"], [entry("own", "human", "allowed-once")], None)),
        ),
    }


class FixedCases(unittest.TestCase):
    def test_ba_1_to_8_under_both_values_of_the_rule_in_both_profiles(self):
        for case, (sc, expected) in fixed_cases().items():
            for value in VALUES:
                for profile in PROFILES:
                    with self.subTest(case=case, value=value, profile=profile):
                        outcome = decide(sc, value, profile)["calls"][-1]
                        trace, approvals, asked = expected[value]
                        self.assertEqual(outcome["trace"], trace)
                        self.assertEqual(outcome["body_approvals"], approvals)
                        self.assertEqual(None if outcome["approval"] is None else outcome["approval"]["answer"], asked)
                        # The body ran: the result is the executed one, whatever the body's requests got.
                        self.assertEqual(outcome["result"], {"executed": True, "text": None, "info": None})

    def test_ba_5_leaves_auto_through_the_presets_service(self):
        sc, _ = fixed_cases()["BA-5"]
        outcome = decide(sc, reply="call")
        self.assertEqual(outcome["sandbox"], {"before": "danger-full-access", "after": "workspace-write"})

    def test_ba_7_the_earlier_call_raised_nothing_and_has_no_body_approvals(self):
        sc, _ = fixed_cases()["BA-7"]
        first, _ = decide(sc)["calls"]
        self.assertNotIn("body_approvals", first)
        self.assertEqual(first["trace"], ["review", "downstream", "body"])


class World(unittest.TestCase):
    def test_leaving_auto_for_full_access_writes_never_which_the_service_then_answers(self):
        body = [raised("own", answer="allowed-once"), {"leave_auto": "danger-full-access"}, raised("own", answer="allowed-once")]
        sc = scenario(call(reviewer=text(ALLOW), body=body), call(downstream={"kind": "ask", "reason": "hook"}, approval="allowed-once"))
        for value in VALUES:
            first, later = decide(sc, value)["calls"]
            self.assertEqual(
                first["body_approvals"],
                [entry("own", "gate" if value == "allowed-call" else "human", "allowed-once"), entry("own", "service", "rejected")],
            )
            self.assertNotIn("sandbox", first)  # full access before and after
            # The later call sees the preset the body selected: not Auto, so it passes through, and
            # `never` answers its ask.
            self.assertEqual(later["trace"], ["downstream", "approval"])
            self.assertEqual((later["approval"]["answer"], later["approval"]["prompted"]), ("rejected", False))

    def test_a_raise_without_an_answer_gets_the_calls_approval(self):
        for approval in ("allowed-once", "rejected", "cancelled", "unavailable"):
            sc = scenario(call(reviewer=text(ALLOW), approval=approval, body=[raised("none", answer=None)]))
            self.assertEqual(decide(sc, reply="call")["body_approvals"], [entry("none", "human", approval)])

    def test_a_body_that_does_not_run_raises_nothing(self):
        for item in (call(reviewer=text(DENY), approval="rejected"), call(reviewer=text(ALLOW), downstream={"kind": "cancel"}), call(abort="caller-before-dispatch")):
            sc = scenario({**item, "body": [raised("own")]}, policy={"override": "ask", "default": "ask"})
            outcome = decide(sc, reply="call")
            self.assertNotIn("body_approvals", outcome)
            self.assertNotIn("body", outcome["trace"])

    def test_nothing_is_recorded_where_the_run_does_not_observe_body_approvals(self):
        sc = scenario(call(reviewer=text(ALLOW), body=[raised("own")]))
        outcome = decide(sc, observes=("sessions", "requests", "confinement"), reply="call")
        self.assertNotIn("body_approvals", outcome)
        self.assertEqual(outcome["trace"], ["review", "downstream", "body"])

    def test_the_services_listeners_answer_in_order_and_the_human_last(self):
        seen = []

        def gate(answers):
            class Answering:
                def __init__(self, host, restored):
                    self._unregister = [host.presets.register_auto()]
                    for name, answer, prepend in answers:
                        self._unregister.append(host.approval.on_request(self.answerer(name, answer), prepend=prepend))

                @staticmethod
                def answerer(name, answer):
                    async def listener(request, call_next):
                        seen.append((name, request.call_id, request.tool_name, request.reason, request.agent.id))
                        return await call_next() if answer is None else answer

                    return listener

                async def listener(self, call, call_next, env):
                    return await call_next()

                def close(self):
                    for unregister in self._unregister:
                        unregister()

                async def wait_closed(self):
                    pass

            return Answering

        sc = scenario(call(body=[raised("unreviewed", reason="r", answer="cancelled")]))
        outcome = decide(sc, gate=gate([("b", None, False), ("a", None, True)]), reply="call")
        self.assertEqual(outcome["body_approvals"], [entry("unreviewed", "human", "cancelled", reason="r")])
        self.assertEqual(seen, [("a", "call-unreviewed", "pwsh", "r", "agent-1"), ("b", "call-unreviewed", "pwsh", "r", "agent-1")])
        seen.clear()
        outcome = decide(sc, gate=gate([("b", "rejected", False), ("a", None, True)]), reply="call")
        self.assertEqual(outcome["body_approvals"], [entry("unreviewed", "gate", "rejected", reason="r")])
        seen.clear()
        # A listener that answers outside the vocabulary: the answer is unavailable (AR-APPROVAL-2).
        outcome = decide(sc, gate=gate([("a", "allow", False)]), reply="call")
        self.assertEqual(outcome["body_approvals"], [entry("unreviewed", "gate", "unavailable", reason="r")])
        # The tool runtime's own ask reaches the listeners too, with the call's own id.
        seen.clear()
        asked = scenario(call(downstream={"kind": "ask", "reason": "hook"}, approval="rejected"))
        outcome = decide(asked, gate=gate([("a", "allowed-once", False)]), reply="call")
        self.assertEqual(seen, [("a", "call-1", "pwsh", "hook", "agent-1")])
        self.assertEqual((outcome["approval"]["answer"], outcome["approval"]["prompted"]), ("allowed-once", True))
        self.assertTrue(outcome["result"]["executed"])

    def test_the_post_execute_hook_sees_every_result_produced(self):
        results = []

        class Watching:
            def __init__(self, host, restored):
                self._unregister = [host.presets.register_auto(), host.post_execute.register(lambda call, result: results.append((call.call_id, result["executed"])))]

            async def listener(self, call, call_next, env):
                return await call_next()

            def close(self):
                for unregister in self._unregister:
                    unregister()

            async def wait_closed(self):
                pass

        sc = scenario(call(), call(downstream={"kind": "cancel"}), call(abort="caller-before-dispatch"))
        decide(sc, gate=Watching)
        self.assertEqual(results, [("call-1", True), ("call-2", False), ("call-3", False)])

        class Raising(Watching):
            def __init__(self, host, restored):
                def broken(call, result):
                    raise RuntimeError("the hook broke")

                self._unregister = [host.presets.register_auto(), host.post_execute.register(broken)]

        with self.assertRaises(GateError):
            decide(scenario(), gate=Raising)


class ExampleGate(unittest.TestCase):
    def test_under_human_the_gate_registers_no_answerer(self):
        installed = []

        def keep(host, restored):
            installed.append(install(host, restored))
            return installed[-1]

        sc = scenario(call(reviewer=text(ALLOW), body=[raised("own")]))
        decide(sc, "human", gate=keep)
        self.assertEqual((installed[0]._body_approval_hooks, installed[0].allowed_calls), ([], {}))
        decide(sc, "allowed-call", gate=keep)
        self.assertEqual(len(installed[1]._body_approval_hooks), 2)
        # Forgotten once the result was produced.
        self.assertEqual(installed[1].allowed_calls, {"agent-1": set()})

    def test_a_failure_asked_about_and_then_allowed_is_not_covered(self):
        failed = call(reviewer=text("not json"), approval="allowed-once", body=[raised("own")])
        outcome = decide(scenario(failed, config={"on_failure": "ask"}), "allowed-call", "resilient", reply="call")
        self.assertEqual(outcome["approval"]["answer"], "allowed-once")
        self.assertEqual(outcome["body_approvals"], HUMAN_REJECTED)

    def test_a_call_after_disposal_and_reinstallation_is_answered_by_the_new_integration_only(self):
        sc = scenario(
            call(reviewer=text(ALLOW)),
            {"event": "dispose", "reselect": False},
            {"event": "install", "reselect": False},
            {"event": "select-auto", "reselect": False},
            call(reviewer=text(ALLOW), body=[raised("own"), raised("finished")]),
        )
        outcome = decide(sc)["calls"][-1]
        self.assertEqual(outcome["body_approvals"], [entry("own", "gate", "allowed-once"), entry("finished", "human", "rejected")])


class Rule(unittest.TestCase):
    def test_the_rule_is_known_and_left_out_means_human(self):
        self.assertEqual(RULE_VALUES["body_approvals"], ("human", "allowed-call"))
        older = {k: v for k, v in rules_of("baseline").items() if k != "body_approvals"}
        self.assertEqual(check_rules(older)["body_approvals"], "human")
        with self.assertRaises(ValueError):
            check_rules({**older, "body_approvals": True})

    def test_a_gate_that_neither_names_nor_observes_it_covers_a_profile_whatever_its_value(self):
        offered = implemented_rules({name: values for name, values in RULE_VALUES.items() if name != "body_approvals"})
        for value in VALUES:
            run = check_rules(rules("baseline", value))
            self.assertTrue(_covers(offered, run))
            self.assertFalse(_covers(offered, run, ("body-approvals",)))
            self.assertTrue(_covers(implemented_rules(RULE_VALUES), run, ("body-approvals",)))


class Fixture(unittest.TestCase):
    def test_a_line_without_a_body_decides_alike_under_either_value_of_the_rule(self):
        checked = 0
        for line in FIXTURE:
            sc = line["scenario"]
            if any(item.get("body") for item in sc["calls"]):
                continue
            base = {**line["rules"], "body_approvals": line["rules"].get("body_approvals", "human")}
            flipped = {**base, "body_approvals": "human" if base["body_approvals"] == "allowed-call" else "allowed-call"}
            with self.subTest(case=line["case"], profile=line["profile"]):
                self.assertEqual(
                    run_input(copy.deepcopy(sc), install, world=line["world"], rules=flipped, reply=line["reply"]),
                    run_input(copy.deepcopy(sc), install, world=line["world"], rules=base, reply=line["reply"]),
                )
                checked += 1
        self.assertGreater(checked, 500)


if __name__ == "__main__":
    unittest.main()

"""The observable ``confinement`` (AR-CONFINE-1..4, spec/scenario.md "Sandbox"): the world's
sandbox policy, the outcome's ``sandbox``, the tool runtime's materialized throw, and the example
gate under both values of the rule ``confinement``."""

import copy
import unittest

from kit_path import _DEFAULTS, FIXTURE, call, rules_of, scenario, text, world

from autoreview_kit import GateError, Host, run_input
from autoreview_kit.example_gate import install
from autoreview_kit.protocol import _covers
from autoreview_kit.rules import check_rules, implemented_rules, RULE_VALUES
from autoreview_kit.scenario import decode
from autoreview_kit.world import PermissionPresets, SandboxModeRejected, SandboxPolicy, _Knobs, _SandboxState

ALLOW = '{"risk":"low","decision":"allow"}'
FENCE = "cannot change sandbox mode while persistent terminal sessions are open"


def confined(sandbox, *items, **head):
    """A canonical scenario whose session states ``sandbox`` (its other members at their
    defaults)."""
    session = {**copy.deepcopy(_DEFAULTS["scenario"]["session"]), "sandbox": {"mode": "danger-full-access", "confines_reads": False, "narrowing": "accepted", **sandbox}}
    return scenario(*items, session=session, **head)


def rules(profile="resilient", confinement=True):
    return {**rules_of(profile), "confinement": confinement}


def decide(sc, confinement=True, profile="resilient", gate=install, **options):
    return run_input(sc, gate, world=world(sc), rules=rules(profile, confinement), **options)


class WorldSandbox(unittest.TestCase):
    def test_a_rejected_change_raises_its_own_message_and_keeps_the_mode(self):
        state = _SandboxState({"mode": "danger-full-access", "confines_reads": True, "narrowing": {"rejected": FENCE}})
        policy = SandboxPolicy(state)
        with self.assertRaises(SandboxModeRejected) as caught:
            policy.set_sandbox_mode(None, "workspace-write")
        self.assertEqual(str(caught.exception), FENCE)
        self.assertEqual(policy.mode_of(None), "danger-full-access")
        policy.set_sandbox_mode(None, "danger-full-access")  # no change: nothing to reject

    def test_an_accepted_change_writes_only_the_mode(self):
        state = _SandboxState({"mode": "danger-full-access", "confines_reads": True, "narrowing": "accepted"})
        SandboxPolicy(state).set_sandbox_mode(None, "workspace-write")
        self.assertEqual(state.mode, "workspace-write")

    def test_presets_write_their_mode_and_auto_the_one_its_registration_names(self):
        state = _SandboxState({"mode": "workspace-write", "confines_reads": True, "narrowing": {"rejected": FENCE}})
        presets = PermissionPresets("auto", _Knobs(None, "ask"), state)
        presets.register_auto(sandbox=lambda session: "workspace-write")
        presets.select(None, "danger-full-access")  # the presets' own write: no fence
        self.assertEqual(state.mode, "danger-full-access")
        presets.select(None, "auto")
        self.assertEqual(state.mode, "workspace-write")
        presets.select(None, "workspace-write")
        self.assertEqual(state.mode, "workspace-write")

    def test_a_host_has_no_sandbox_unless_given_one(self):
        self.assertIsNone(Host(None, None, None, None, None, None, print, rules=rules_of("baseline")).sandbox_policy)

    def test_decode_gives_every_session_its_sandbox(self):
        sc = scenario()
        self.assertEqual(decode(sc, world(sc))["session"]["sandbox"], {"mode": "danger-full-access", "confines_reads": False, "narrowing": "accepted"})
        bad = confined({"mode": "read-only"})
        with self.assertRaises(ValueError):
            decode(bad, world(bad))


class Outcome(unittest.TestCase):
    def test_a_rejected_narrowing_fails_the_call_with_its_message_and_nothing_runs(self):
        sc = confined({"confines_reads": True, "narrowing": {"rejected": FENCE}}, call(reviewer=text(ALLOW)))
        outcome = decide(sc, reply="call")
        self.assertEqual(
            {k: outcome[k] for k in ("settled", "listener", "approval", "result", "trace")},
            {
                "settled": True,
                "listener": None,
                "approval": None,
                "result": {"executed": False, "text": f"Error: {FENCE}", "info": None},
                "trace": [],
            },
        )
        self.assertEqual(outcome["review"]["attempts"], 0)
        self.assertNotIn("sandbox", outcome)  # full access before and after

    def test_the_narrowed_mode_is_recorded_and_the_body_runs_under_it(self):
        sc = confined({"confines_reads": True}, call(reviewer=text(ALLOW)))
        for profile in ("baseline", "resilient"):
            outcome = decide(sc, profile=profile, reply="call")
            self.assertEqual(outcome["sandbox"], {"before": "danger-full-access", "after": "workspace-write"})
            self.assertEqual(outcome["trace"], ["review", "downstream", "body"])

    def test_the_outer_run_code_call_is_narrowed_before_it_passes_through(self):
        sc = confined({"confines_reads": True}, call(tool={"name": "run_code", "call": "run-code"}))
        outcome = decide(sc, reply="call")
        self.assertEqual((outcome["trace"], outcome["review"]["attempts"]), (["downstream", "body"], 0))
        self.assertEqual(outcome["sandbox"]["after"], "workspace-write")

    def test_a_confined_session_is_never_widened_and_a_closing_integration_narrows_nothing(self):
        kept = decide(confined({"mode": "workspace-write", "narrowing": {"rejected": FENCE}}, call(reviewer=text(ALLOW))), reply="call")
        self.assertEqual(kept["sandbox"], {"before": "workspace-write", "after": "workspace-write"})
        self.assertTrue(kept["result"]["executed"])
        closing = decide(confined({"confines_reads": True}, call(reviewer=text(ALLOW), abort="lifecycle-before-review")), reply="call")
        self.assertEqual(closing["listener"], {"kind": "cancel"})
        self.assertNotIn("sandbox", closing)

    def test_without_the_rule_nothing_is_narrowed_and_disposal_writes_full_access(self):
        sc = confined({"confines_reads": True, "narrowing": {"rejected": FENCE}}, call(reviewer=text(ALLOW)))
        self.assertTrue(decide(sc, confinement=False, reply="call")["result"]["executed"])
        moved = confined({"mode": "workspace-write"}, call(reviewer=text(ALLOW), abort="lifecycle-after-review"))
        outcome = decide(moved, confinement=False, profile="baseline", reply="call")
        self.assertEqual(outcome["sandbox"], {"before": "workspace-write", "after": "danger-full-access"})

    def test_a_call_without_an_agent_has_no_session_and_so_no_sandbox(self):
        sc = confined({"mode": "workspace-write"}, call(agent=False), call())
        no_agent, with_agent = decide(sc)["calls"]
        self.assertNotIn("sandbox", no_agent)
        self.assertEqual(with_agent["sandbox"], {"before": "workspace-write", "after": "workspace-write"})

    def test_the_sandbox_is_written_only_when_the_run_observes_confinement(self):
        sc = confined({"confines_reads": True}, call(reviewer=text(ALLOW)))
        self.assertNotIn("sandbox", decide(sc, observes=("sessions", "requests"), reply="call"))

    def test_a_raising_listener_is_the_calls_result_only_where_confinement_is_observed(self):
        class Raising:
            def __init__(self, host, restored):
                self._unregister = host.presets.register_auto()

            async def listener(self, call, call_next, env):
                raise RuntimeError("the hook broke")

            def close(self):
                self._unregister()

            async def wait_closed(self):
                pass

        sc = scenario()
        outcome = decide(sc, gate=Raising, reply="call")
        self.assertEqual(outcome["result"], {"executed": False, "text": "Error: the hook broke", "info": None})
        self.assertIsNone(outcome["listener"])
        with self.assertRaises(GateError):
            decide(sc, gate=Raising, observes=("sessions",), reply="call")


class Sessions(unittest.TestCase):
    def test_disposal_keeps_a_confined_session_under_workspace_write_and_its_policy(self):
        asked = call(reviewer=text(ALLOW), downstream={"kind": "ask", "reason": "hook"}, approval="allowed-once")
        sc = confined({"confines_reads": True}, call(reviewer=text(ALLOW)), {"event": "dispose", "reselect": False}, asked)
        first, _, after = decide(sc)["calls"]
        self.assertEqual(first["sandbox"]["after"], "workspace-write")
        self.assertEqual(after["sandbox"], {"before": "workspace-write", "after": "workspace-write"})
        self.assertEqual((after["approval"]["answer"], after["approval"]["prompted"]), ("allowed-once", True))
        # A delegated child pinned to `never` stays so (AR-CONFINE-5).
        pinned = confined({"mode": "workspace-write"}, {"event": "dispose", "reselect": False}, asked, policy={"override": "never", "default": "ask"})
        _, after = decide(pinned)["calls"]
        self.assertEqual((after["approval"]["answer"], after["approval"]["prompted"]), ("rejected", False))
        self.assertEqual(after["sandbox"]["after"], "workspace-write")
        # Without the rule, disposal writes Full access, its mode and `never`.
        sc = confined({"mode": "workspace-write"}, {"event": "dispose", "reselect": False}, asked)
        _, after = decide(sc, confinement=False)["calls"]
        self.assertNotIn("sandbox", after)  # full access before and after
        self.assertEqual((after["approval"]["answer"], after["approval"]["prompted"]), ("rejected", False))

    def test_selecting_auto_writes_the_confined_mode_on_a_backend_that_confines_reads(self):
        sc = confined(
            {"confines_reads": True, "narrowing": {"rejected": FENCE}},
            {"event": "select-auto", "reselect": False},
            call(reviewer=text(ALLOW)),
            {"event": "backend", "reselect": False, "confines_reads": False},
            {"event": "select-auto", "reselect": False},
            call(reviewer=text(ALLOW)),
        )
        calls = decide(sc)["calls"]
        self.assertEqual(calls[2], {"event": "backend", "error": None})
        self.assertEqual(calls[1]["sandbox"], {"before": "workspace-write", "after": "workspace-write"})
        self.assertTrue(calls[1]["result"]["executed"])
        self.assertNotIn("sandbox", calls[4])  # selected again: full access, and nothing narrows it
        # Without the rule, selecting Auto writes full access, and nothing is narrowed.
        calls = decide(sc, confinement=False)["calls"]
        self.assertNotIn("sandbox", calls[1])

    def test_a_backend_that_starts_confining_narrows_the_next_call(self):
        sc = confined({}, call(reviewer=text(ALLOW)), {"event": "backend", "reselect": False, "confines_reads": True}, call(reviewer=text(ALLOW)))
        first, _, second = decide(sc)["calls"]
        self.assertNotIn("sandbox", first)
        self.assertEqual(second["sandbox"], {"before": "danger-full-access", "after": "workspace-write"})


class Fixture(unittest.TestCase):
    def test_a_line_without_a_sandbox_decides_alike_under_either_value_of_the_rule(self):
        # What the rule changes needs a sandbox or a backend that changes: every other line of the
        # fixture comes to the same outcome with the rule flipped, whatever the profiles say.
        checked = 0
        for line in FIXTURE:
            sc = line["scenario"]
            if "sandbox" in sc["session"] or any(item.get("event") == "backend" for item in sc["calls"]):
                continue
            flipped = {**line["rules"], "confinement": not line["rules"]["confinement"]}
            with self.subTest(case=line["case"], profile=line["profile"]):
                self.assertEqual(
                    run_input(sc, install, world=line["world"], rules=flipped, reply=line["reply"]),
                    run_input(sc, install, world=line["world"], rules=line["rules"], reply=line["reply"]),
                )
                checked += 1
        self.assertGreater(checked, 500)


class Rule(unittest.TestCase):
    def test_the_rule_is_known_and_left_out_means_false(self):
        self.assertEqual(RULE_VALUES["confinement"], (False, True))
        older = {k: v for k, v in rules_of("baseline").items() if k != "confinement"}
        self.assertIs(check_rules(older)["confinement"], False)
        with self.assertRaises(ValueError):
            check_rules({**older, "confinement": "yes"})

    def test_a_gate_that_neither_names_nor_observes_it_covers_a_profile_whatever_its_value(self):
        offered = implemented_rules({name: values for name, values in RULE_VALUES.items() if name != "confinement"})
        for value in (False, True):
            run = check_rules(rules("baseline", value))
            self.assertTrue(_covers(offered, run))
            self.assertFalse(_covers(offered, run, ("confinement",)))
            self.assertTrue(_covers(implemented_rules(RULE_VALUES), run, ("confinement",)))


if __name__ == "__main__":
    unittest.main()

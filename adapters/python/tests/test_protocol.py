"""The protocol loop over in-memory pipes: the handshake under protocols 1 and 2, observes and
lacks, canonical scenarios, error replies, and stop."""

import io
import json
import unittest

from kit_path import FIXTURE, call, rules_of, scenario, text, world

from autoreview_kit import RULE_VALUES, serve
from autoreview_kit.example_gate import install

IMPLEMENTATION = {"name": "t", "version": "0", "language": "python"}


def exchange(*messages, **options):
    stdin = io.BytesIO("".join(json.dumps(m) + "\n" for m in messages).encode())
    stdout = io.BytesIO()
    logged = []
    status = serve(
        implementation=IMPLEMENTATION, install=install, argv=[], stdin=stdin, stdout=stdout, log=logged.append, **options
    )
    return status, [json.loads(line) for line in stdout.getvalue().decode().splitlines()]


HELLO_2 = {"type": "hello", "protocol": 2, "profile": "baseline", "rules": rules_of("baseline"), "runner": "test"}


class Handshake(unittest.TestCase):
    def test_protocol_2_lists_what_is_observed_and_no_lacks_by_default(self):
        _, (hello,) = exchange(HELLO_2, observes=("requests", "sessions"))
        self.assertEqual(hello["protocol"], 2)
        self.assertEqual(hello["observes"], ["sessions", "requests"])
        self.assertNotIn("lacks", hello)
        self.assertIs(hello["canonical"], True)

    def test_declared_lacks_are_sent(self):
        _, (hello,) = exchange(HELLO_2, lacks=("abort-signal", "deny-reason"))
        self.assertEqual(hello["lacks"], ["deny-reason", "abort-signal"])

    def test_a_protocol_1_runner_gets_protocol_1_without_observes(self):
        _, (hello,) = exchange({**HELLO_2, "protocol": 1}, observes=("sessions",), lacks=("deny-reason",))
        self.assertEqual(hello["protocol"], 1)
        self.assertNotIn("observes", hello)
        self.assertNotIn("lacks", hello)
        self.assertNotIn("canonical", hello)

    def test_features_are_sent_only_when_declared(self):
        _, (hello,) = exchange(HELLO_2)
        self.assertNotIn("features", hello)
        _, (hello,) = exchange(HELLO_2, features=("failure-class", "failure-hint"))
        self.assertEqual(hello["features"], ["failure-hint", "failure-class"])
        _, (hello,) = exchange(HELLO_2, features=())
        self.assertEqual(hello["features"], [])
        _, (hello,) = exchange({**HELLO_2, "protocol": 1}, features=("failure-hint",))
        self.assertNotIn("features", hello)
        with self.assertRaises(ValueError):
            exchange(HELLO_2, features=("hint",))

    def test_rules_are_sent_only_when_declared_in_the_protocols_order(self):
        _, (hello,) = exchange(HELLO_2)
        self.assertNotIn("rules", hello)
        _, (hello,) = exchange(HELLO_2, profiles=(), rules={"deadline": (True, False), "reader": ["tolerant", "strict"]})
        self.assertEqual(hello["rules"], {"reader": ["strict", "tolerant"], "deadline": [False, True]})
        self.assertEqual(hello["profiles"], [])
        _, (hello,) = exchange(HELLO_2, rules=RULE_VALUES)
        self.assertEqual(hello["rules"], {name: list(values) for name, values in RULE_VALUES.items()})
        _, (hello,) = exchange({**HELLO_2, "protocol": 1}, rules=RULE_VALUES)
        self.assertNotIn("rules", hello)
        for wrong in ({"readers": ["strict"]}, {"reader": ["lenient"]}, {"deadline": [1]}, {"config": []}):
            with self.assertRaises(ValueError, msg=wrong):
                exchange(HELLO_2, rules=wrong)

    def test_unknown_names_are_refused_before_serving(self):
        with self.assertRaises(ValueError):
            exchange(HELLO_2, observes=("sesions",))
        with self.assertRaises(ValueError):
            exchange(HELLO_2, lacks=("reason",))


class Decide(unittest.TestCase):
    def test_an_outcome_echoes_seq_and_stop_ends_the_loop(self):
        decide = {
            "type": "decide",
            "seq": 7,
            "reply": "call",
            "world": world(scenario()),
            "scenario": scenario(),
        }
        status, replies = exchange(HELLO_2, decide, {"type": "stop"}, decide)
        self.assertEqual(status, 0)
        self.assertEqual([r["type"] for r in replies], ["hello", "outcome"])
        self.assertEqual((replies[1]["seq"], replies[1]["outcome"]["result"]["executed"]), (7, True))

    def test_each_decide_is_decided_by_the_hellos_rules(self):
        looked = []

        class Looking:
            def __init__(self, host, restored):
                looked.append((host.profile, host.rules["reader"]))
                self._unregister = host.presets.register_auto()

            async def listener(self, call, call_next, env):
                return await call_next()

            def close(self):
                self._unregister()

            async def wait_closed(self):
                pass

        decide = {"type": "decide", "seq": 1, "reply": "call", "world": world(scenario()), "scenario": scenario()}
        hello = {**HELLO_2, "profile": "mine", "rules": {**rules_of("baseline"), "reader": "tolerant"}}
        stdin = io.BytesIO("".join(json.dumps(m) + "\n" for m in (hello, decide)).encode())
        stdout = io.BytesIO()
        serve(implementation=IMPLEMENTATION, install=Looking, argv=[], stdin=stdin, stdout=stdout, log=lambda *a: None)
        self.assertEqual(looked, [("mine", "tolerant")])
        self.assertEqual(json.loads(stdout.getvalue().decode().splitlines()[1])["type"], "outcome")

    def test_a_hello_whose_rules_cannot_be_read_makes_every_decide_an_error(self):
        decide = {"type": "decide", "seq": 4, "reply": "call", "world": world(scenario()), "scenario": scenario()}
        _, replies = exchange({**HELLO_2, "profile": "mine", "rules": {"reader": "strict"}}, decide)
        self.assertEqual((replies[1]["type"], replies[1]["seq"]), ("error", 4))
        self.assertIn("autoreview profiles --json", replies[1]["message"])

    def test_a_scenario_that_is_not_canonical_is_an_error_reply_in_one_line(self):
        decide = {"type": "decide", "seq": 3, "scenario": {"tool": {"name": "pwsh"}, "reviewer": {"text": "x"}}}
        _, replies = exchange(HELLO_2, decide)
        self.assertEqual((replies[1]["type"], replies[1]["seq"]), ("error", 3))
        self.assertTrue(replies[1]["message"].startswith("not a canonical scenario"), replies[1]["message"])

    def test_a_lone_surrogate_travels_as_replacement_character(self):
        reason = "\ud800"
        decide = {
            "type": "decide",
            "seq": 1,
            "reply": "call",
            "scenario": scenario(
                call(reviewer=text(json.dumps({"risk": "high", "decision": "deny", "reason": reason}))),
                policy={"override": "never", "default": "ask"},
            ),
        }
        decide["world"] = world(decide["scenario"])
        _, replies = exchange(HELLO_2, decide)
        self.assertEqual(replies[1]["outcome"]["listener"]["info"]["reason"], "\ufffd")


class DecideLines(unittest.TestCase):
    def run_lines(self, *lines, argv=("--decide",)):
        stdin = io.BytesIO("".join(json.dumps(line) + "\n" for line in lines).encode())
        stdout = io.BytesIO()
        serve(implementation=IMPLEMENTATION, install=install, argv=list(argv), stdin=stdin, stdout=stdout, log=lambda *a: None)
        return [json.loads(line) for line in stdout.getvalue().decode().splitlines()]

    def test_each_line_is_decided_by_its_own_rules(self):
        lines = [next(line for line in FIXTURE if line["profile"] == p and line["reply"] == "call") for p in ("baseline", "resilient")]
        outcomes = self.run_lines(*({k: line[k] for k in ("rules", "reply", "world", "scenario")} for line in lines))
        self.assertEqual([o["listener"] for o in outcomes], [line["outcome"]["listener"] for line in lines])

    def test_a_line_without_rules_is_an_error_saying_where_to_get_them(self):
        line = {k: v for k, v in FIXTURE[0].items() if k in ("reply", "world", "scenario")}
        (reply,) = self.run_lines(line, argv=("--decide", "baseline"))
        self.assertIn("no `rules`", reply["error"])
        self.assertIn("autoreview profiles --json", reply["error"])


if __name__ == "__main__":
    unittest.main()

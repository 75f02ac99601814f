"""The protocol loop over in-memory pipes: the handshake under protocols 1 and 2, observes and
lacks, canonical scenarios, error replies, and stop."""

import io
import json
import unittest

from kit_path import call, scenario, text, world

from autoreview_kit import serve
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


HELLO_2 = {"type": "hello", "protocol": 2, "profile": "baseline", "runner": "test"}


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


if __name__ == "__main__":
    unittest.main()

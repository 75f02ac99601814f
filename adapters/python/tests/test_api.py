"""The kit's public API, tested as an adapter author would: only names ``autoreview_kit`` exports,
the API list of the README held equal to ``__all__`` (so neither can go stale), and a small
adapter built on ``serve`` run as the runner runs one — in a subprocess, answering a ``hello``
that carries the profile's rules and deciding a ``decide`` line of the engine's replay fixture."""

import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import tomllib
import unittest
from pathlib import Path

KIT = Path(__file__).resolve().parent.parent  # adapters/python
REPO = KIT.parent.parent
if str(KIT) not in sys.path:  # this checkout's kit, not another installed copy
    sys.path.insert(0, str(KIT))

import autoreview_kit  # noqa: E402
from autoreview_kit import PROTOCOL, RULE_VALUES, RULES  # noqa: E402

README = (KIT / "README.md").read_text("utf-8")
FIXTURE = [json.loads(line) for line in (REPO / "spec" / "fixtures" / "replay.jsonl").read_text("utf-8").split("\n") if line]


def api_section():
    """The README's section "The kit's API", up to the next section."""
    start = README.index("\n## The kit's API\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end >= 0 else None]


def listed_names():
    """The names the API section's table lists, in its order."""
    return re.findall(r"^\| `([A-Za-z_][A-Za-z0-9_]*)` \|", api_section(), re.MULTILINE)


class TheListedApi(unittest.TestCase):
    def test_every_listed_name_is_exported(self):
        names = listed_names()
        self.assertGreater(len(names), 30)
        self.assertEqual(len(names), len(set(names)), "a name listed twice")
        for name in names:
            with self.subTest(name=name):
                self.assertIn(name, autoreview_kit.__all__)
                self.assertTrue(hasattr(autoreview_kit, name))

    def test_all_exports_nothing_the_readme_does_not_list(self):
        self.assertEqual(sorted(set(autoreview_kit.__all__) - set(listed_names())), [])
        self.assertEqual(len(autoreview_kit.__all__), len(set(autoreview_kit.__all__)))

    def test_the_version_is_one_and_semantic(self):
        version = autoreview_kit.__version__
        self.assertRegex(version, r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$")
        self.assertIn(f"Version **{version}**", api_section())
        with open(KIT / "pyproject.toml", "rb") as f:
            self.assertEqual(tomllib.load(f)["project"]["version"], version)
        changelog = (KIT / "CHANGELOG.md").read_text("utf-8")
        self.assertIn(f"\n## {version} ", changelog, "the changelog records the version")

    def test_the_rules_are_those_the_runners_hello_states(self):
        hello_rules = FIXTURE[0]["rules"]  # as the runner's hello carries them
        self.assertEqual(list(RULES), [name for name in hello_rules if name != "config"])
        self.assertEqual(list(RULE_VALUES), list(RULES))
        for line in FIXTURE:
            for name in RULES:
                self.assertIn(line["rules"][name], RULE_VALUES[name], f"{line['case']} {name}")


# A small adapter as an author writes one: a gate that reviews a call in Auto with one reviewer
# request, as the run's rules say, and lets downstream decide when the reviewer allows. It uses
# only the kit's public names.
ADAPTER = textwrap.dedent(
    """
    import json
    import sys

    from autoreview_kit import Allow, Block, Cancel, Deny, serve


    class TinyGate:
        def __init__(self, host, restored):
            self.rules = host.rules
            self.unregister = host.presets.register_auto()

        async def listener(self, call, call_next, env):
            if call.agent is None or env.presets.current(call.agent.session) != "auto":
                return await call_next()
            session = call.agent.session
            configured = env.config.reviewer_route if self.rules["route"] == "configured-first" else None
            route = configured or session.route
            chunks = await env.llm.request(
                provider=route.provider,
                model=route.model,
                system="Review the pending call; reply with one JSON object.",
                messages=[{"role": "user", "content": call.name}],
                temperature=0,
                session_id=session.id if self.rules["session_id_in_requests"] else None,
                signal=call.signal,
            )
            text = "".join(c.text for c in chunks if isinstance(c, Block) and c.type == "text")
            if json.loads(text).get("decision") == "allow":
                return await call_next()
            return Deny(f'Auto review rejected tool "{call.name}"; its body was not executed')

        def close(self):
            pass

        async def wait_closed(self):
            self.unregister()


    sys.exit(
        serve(
            implementation={"name": "tiny-gate", "version": "0.0.1", "language": "python"},
            profiles=(),
            rules={"reader": ("strict",), "session_id_in_requests": (False, True), "route": ("session", "configured-first")},
            observes=("sessions", "requests", "session-log"),
            install=TinyGate,
        )
    )
    """
)


class AnAdapterBuiltOnServe(unittest.TestCase):
    def exchange(self, line):
        """Runs the adapter as the runner does: its hello with the line's profile and rules, the
        line as a decide, then stop. Returns the adapter's replies."""
        messages = [
            {"type": "hello", "protocol": 2, "profile": line["profile"], "rules": line["rules"], "runner": "test"},
            {"type": "decide", "seq": 1, "reply": line["reply"], "world": line["world"], "scenario": line["scenario"]},
            {"type": "stop"},
        ]
        with tempfile.TemporaryDirectory() as directory:
            adapter = Path(directory) / "tiny_adapter.py"
            adapter.write_text(ADAPTER, "utf-8")
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(KIT), os.environ.get("PYTHONPATH")]))}
            done = subprocess.run(
                [sys.executable, str(adapter)],
                input="".join(json.dumps(m) + "\n" for m in messages),
                capture_output=True,
                text=True,
                timeout=60,
                env=env,
            )
        self.assertEqual(done.returncode, 0, done.stderr)
        return [json.loads(reply) for reply in done.stdout.splitlines()]

    def test_the_adapter_answers_hello_then_reaches_the_reference_outcome(self):
        lines = [line for line in FIXTURE if line["case"] == "DEFAULTS"]
        self.assertEqual(sorted(line["profile"] for line in lines), ["baseline", "resilient", "shipped-0.2"])
        for line in lines:
            with self.subTest(profile=line["profile"]):
                hello, outcome = self.exchange(line)
                self.assertEqual(hello["type"], "hello")
                self.assertEqual(hello["protocol"], PROTOCOL)
                self.assertEqual(hello["profiles"], [])
                self.assertEqual(
                    hello["rules"],
                    {"reader": ["strict"], "session_id_in_requests": [False, True], "route": ["session", "configured-first"]},
                )
                self.assertIs(hello["canonical"], True)
                self.assertEqual((outcome["type"], outcome["seq"]), ("outcome", 1))
                self.assertEqual(outcome["outcome"], line["outcome"])


if __name__ == "__main__":
    unittest.main()

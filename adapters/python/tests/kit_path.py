"""Puts the kit's source tree first on sys.path, so the tests check this tree even when another
copy of the kit is installed. Imported by every test module before the kit."""

import sys
from pathlib import Path

KIT = Path(__file__).resolve().parent.parent
REPO = KIT.parent.parent
if str(KIT) not in sys.path:
    sys.path.insert(0, str(KIT))

import copy  # noqa: E402
import json  # noqa: E402

#: The engine's replay fixture: canonical scenarios, the world's answers, the reference outcomes.
FIXTURE = [json.loads(line) for line in (REPO / "spec" / "fixtures" / "replay.jsonl").read_text("utf-8").split("\n") if line]
_DEFAULTS = next(line for line in FIXTURE if line["case"] == "DEFAULTS")
#: Each profile's rules, as the fixture's lines (and the runner's hello) carry them.
RULES = {line["profile"]: line["rules"] for line in FIXTURE}


def rules_of(profile):
    """The rules of the profile named ``profile``, from the fixture."""
    return copy.deepcopy(RULES[profile])


def call(**members):
    """The fixture's call at every default (its line ``DEFAULTS``), with ``members`` replaced."""
    return {**copy.deepcopy(_DEFAULTS["scenario"]["calls"][0]), **members}


def scenario(*items, **head):
    """A canonical scenario of ``items`` (default: one call at every default), with the session's
    members in ``head`` replaced (``config`` merged into the default configuration)."""
    out = {**copy.deepcopy(_DEFAULTS["scenario"]), "calls": list(items) or [call()]}
    config = head.pop("config", {})
    out.update(head)
    out["config"] = {**out["config"], **config}
    return out


def text(t):
    """A reviewer script of one text attempt."""
    return [{"text": t, "delay_ms": 0}]


def world(sc):
    """What the world answers for each item of ``sc`` as for the fixture's call at every default:
    one schema in the header and the registry, a session log that finds the call."""
    return [None if "event" in item else dict(_DEFAULTS["world"][0]) for item in sc["calls"]]

"""The rules a run decides by (spec/protocol.md, "Rules").

A profile is a file that states, besides its clauses, its *rules*: a reader and twelve rules, each with
a few named values (or yes and no), and the scenario ``config`` members it reads. The runner's
``hello`` carries the run's profile's rules as one object; the kit hands it to the gate as
``host.rules``, a read-only mapping::

    host.rules["reader"]            # "strict" or "tolerant"
    host.rules["counts_failures"]   # False or True
    host.rules["config"]            # the config members the profile reads, e.g. ("on_failure", ...)

A gate that decides by these and never by the profile's name can be checked against any profile
that recombines values it implements; it lists them in its hello with ``serve(rules=...)``.
``autoreview profiles --json`` prints every profile with its rules; the lines of
``spec/fixtures/replay.jsonl`` carry them beside the profile's name.

What each value means (the enums of the runner's profile module, and the spec's clauses):

=========================  ============================================================================
rule                       values
=========================  ============================================================================
``reader``                 ``strict``: exactly one JSON object of six shapes (chapter 4, AR-PARSE-*);
                           ``tolerant``: a decision found in what a model really writes (AR-TOL-*)
``failure_text``           ``javascript``: a provider's value as ``String(value)`` (AR-REVIEW-5);
                           ``normalized``: readable and bounded (AR-RES-NORM-1..4)
``asks_again``             ``never``: one request per review (AR-REVIEW-1); ``repair-and-retry``:
                           repairs and retries within ``repair_attempts`` / ``transport_retries``
                           (AR-RES-RETRY-1..3); ``json-retry``: another request, the review policy
                           with a reminder, only after a reply that is not valid JSON, up to
                           ``max_json_retries`` (default 1) and never once a signal aborted
                           (AR-JSON-RETRY-1..3, the 0.2.x gate)
``deadline``               whether a review has one deadline, ``review_timeout_ms`` (AR-RES-RETRY-4)
``counts_failures``        whether the session counts reviewer failures in a row, with the hint after
                           ``failure_hint_after`` (AR-RES-HINT-1..4)
``session_id_in_requests`` whether reviewer requests carry the session's id (AR-REVIEW-12,
                           AR-RES-REQUEST-1)
``route``                  ``session``: the session's route (AR-REVIEW-3); ``configured-first``:
                           ``reviewer_route`` when set, else the session's (AR-RES-ROUTE-1)
``schema``                 ``header``: the request header only (AR-REVIEW-2); ``registry-first``: the
                           live registry, then the header (AR-RES-SCHEMA-1)
``working_directory``      ``required``: none fails the review (AR-REVIEW-10); ``deployment-fallback``:
                           the deployment's stands in (AR-RES-CWD-1)
``failures``               ``deny``: a failure is a denial, a denial final under a recorded
                           ``never`` (AR-DECIDE-1, -2, -6); ``ask``: a failure is asked about
                           under ``ask`` unless ``on_failure`` is ``deny``, a denial final under an
                           effective ``never`` (AR-RES-FAIL-1..3, AR-RES-DECIDE-1, AR-RES-ASK-1)
``preset_read``            ``at-start``: the preset as disposal left it (AR-DISPOSE-2); ``current``:
                           a call in a session disposal moved is refused admission (AR-RES-DISPOSE-1)
``confinement``            whether Auto narrows a full-access session on a backend that confines reads
                           to ``workspace-write`` before anything else it does for a call, never
                           widens, fails the call when the change is rejected, and keeps a confined
                           session's mode when disposal moves it (AR-CONFINE-1..4); ``false``: the
                           gate never changes a session's mode, and disposal writes Full access's
                           (AR-DISPOSE-1). Only scenarios with a sandbox tell the values apart: the
                           observable ``confinement``
``body_approvals``         who answers an approval the tool body raises while it runs (spec chapter 6):
                           ``human``: the approval service's own answers, then the human;
                           ``allowed-call``: the gate answers ``allowed-once`` a request naming a
                           call of the same agent it reviewed and allowed (reviewer and downstream
                           both allowing) until that call's result is produced, while the session is
                           still in Auto (AR-APPROVAL-7), after the service's own answers
                           (AR-APPROVAL-8). Only scenarios whose calls have a ``body`` tell the
                           values apart: the observable ``body-approvals``
=========================  ============================================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["RULE_ABSENT", "RULE_OBSERVABLES", "RULE_VALUES", "RULES", "check_rules", "implemented_rules"]

#: Every rule the runner's hello states, in the order it writes them.
RULES = (
    "reader",
    "failure_text",
    "asks_again",
    "deadline",
    "counts_failures",
    "session_id_in_requests",
    "route",
    "schema",
    "working_directory",
    "failures",
    "preset_read",
    "confinement",
    "body_approvals",
)

#: Each rule's values, as the wire writes them (what ``serve(rules=...)`` may list).
RULE_VALUES: Mapping[str, tuple[Any, ...]] = MappingProxyType(
    {
        "reader": ("strict", "tolerant"),
        "failure_text": ("javascript", "normalized"),
        "asks_again": ("never", "repair-and-retry", "json-retry"),
        "deadline": (False, True),
        "counts_failures": (False, True),
        "session_id_in_requests": (False, True),
        "route": ("session", "configured-first"),
        "schema": ("header", "registry-first"),
        "working_directory": ("required", "deployment-fallback"),
        "failures": ("deny", "ask"),
        "preset_read": ("at-start", "current"),
        "confinement": (False, True),
        "body_approvals": ("human", "allowed-call"),
    }
)

#: The rules that only scenarios needing an observable tell apart, with that observable: a gate
#: that observes it names the values it implements; one that does not meets the rule unnamed
#: (spec/protocol.md, "Rules").
RULE_OBSERVABLES: Mapping[str, str] = MappingProxyType({"confinement": "confinement", "body_approvals": "body-approvals"})

WHERE = "`autoreview profiles --json` prints every profile with its rules"

#: What a rule of :data:`RULE_OBSERVABLES` is where rules leave it out (a runner older than the
#: rule, which sends no scenario that tells its values apart): the value that changes nothing.
RULE_ABSENT: Mapping[str, Any] = MappingProxyType({"confinement": False, "body_approvals": "human"})


def check_rules(rules: Any) -> Mapping[str, Any]:
    """The run's rules as a read-only mapping (``config`` a tuple), checked: a mapping naming every
    rule of :data:`RULES`, each with a value of its type; a rule only an observable tells apart
    (:data:`RULE_OBSERVABLES`) may be left out, and is then :data:`RULE_ABSENT`'s value. A rule
    the kit does not know is kept (a gate that does not implement it is refused by the runner,
    which compares its hello's ``rules``). Raises ValueError naming what is wrong and where the
    rules come from."""
    if not isinstance(rules, Mapping):
        raise ValueError(f"rules must be an object of the profile's rules, not {rules!r}; {WHERE}")
    rules = {**rules, **{name: value for name, value in RULE_ABSENT.items() if name not in rules}}
    missing = [name for name in RULES if name not in rules]
    if missing:
        raise ValueError(f"rules lacks {', '.join(missing)}; {WHERE}")
    for name in RULES:
        value = rules[name]
        flag = isinstance(RULE_VALUES[name][0], bool)
        if (type(value) is not bool) if flag else not isinstance(value, str):
            raise ValueError(f"rules.{name} is {value!r}, not {'true or false' if flag else 'a name'}; {WHERE}")
    config = rules.get("config", ())
    if isinstance(config, str) or not isinstance(config, Iterable):
        raise ValueError(f"rules.config is {config!r}, not a list of config members; {WHERE}")
    return MappingProxyType({**rules, "config": tuple(config)})


def implemented_rules(rules: Mapping[str, Iterable[Any]]) -> dict[str, list[Any]]:
    """What a hello's ``rules`` lists: for each rule a gate implements, its values, in
    :data:`RULE_VALUES` order. Raises ValueError for a rule or a value the protocol does not have."""
    if not isinstance(rules, Mapping):
        raise ValueError(f"serve: rules must map each rule to the values the gate implements, not {rules!r}")
    out: dict[str, list[Any]] = {}
    for name, values in rules.items():
        if name not in RULE_VALUES:
            raise ValueError(f"serve: rules names {name!r}; known: {', '.join(RULES)}")
        listed = list(values)
        known = RULE_VALUES[name]
        # True == 1 in Python: compare types too, so 1 is not taken for true.
        unknown = [v for v in listed if not any(type(v) is type(k) and v == k for k in known)]
        if unknown:
            raise ValueError(f"serve: rules.{name} lists {unknown!r}; known: {list(known)!r}")
        out[name] = [k for k in known if any(type(v) is type(k) and v == k for v in listed)]
    return {name: out[name] for name in RULES if name in out}

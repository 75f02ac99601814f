"""autoreview_kit — everything an autoreview adapter for a Python gate needs except the gate.

Standard library only (Python >= 3.11). ``serve`` speaks the adapter protocol (spec/protocol.md);
``run_input`` decides one scenario line in the scripted world; the gate is an integration made by
``install(host, restored)`` (see :mod:`autoreview_kit.api`), which decides by the run's rules,
``host.rules`` (see :mod:`autoreview_kit.rules`). ``autoreview_kit.example_gate`` is a gate that
implements every value of every rule.

The API is ``__all__``, listed with one line each in the README ("The kit's API") and versioned
with semantic versioning (``__version__``; CHANGELOG.md records each change).
"""

from .api import (
    Agent,
    Allow,
    ApprovalRequest,
    Ask,
    Block,
    Cancel,
    Chunk,
    Decision,
    Deny,
    DisplayReason,
    Finish,
    Integration,
    Parent,
    ReviewerError,
    Route,
    Session,
    SessionLogError,
    ToolCall,
    Usage,
)
from .clock import VirtualClock, VirtualTimeLoop
from .jsvalues import js_json, js_number, js_string
from .outcome import CallRecord, build_outcome, prefix_only
from .protocol import PROTOCOL, serve
from .rules import RULE_VALUES, RULES
from .scenario import Config, decode
from .signals import AbortController, Aborted, AbortSignal
from .world import CAPABILITIES, FEATURES, OBSERVABLES, Env, GateError, Host, run_input

__version__ = "0.6.0"

__all__ = [
    "CAPABILITIES",
    "FEATURES",
    "OBSERVABLES",
    "PROTOCOL",
    "RULES",
    "RULE_VALUES",
    "AbortController",
    "AbortSignal",
    "Aborted",
    "Agent",
    "Allow",
    "ApprovalRequest",
    "Ask",
    "Block",
    "CallRecord",
    "Cancel",
    "Chunk",
    "Config",
    "Decision",
    "Deny",
    "DisplayReason",
    "Env",
    "Finish",
    "GateError",
    "Host",
    "Integration",
    "Parent",
    "ReviewerError",
    "Route",
    "Session",
    "SessionLogError",
    "ToolCall",
    "Usage",
    "VirtualClock",
    "VirtualTimeLoop",
    "build_outcome",
    "decode",
    "js_json",
    "js_number",
    "js_string",
    "prefix_only",
    "run_input",
    "serve",
]

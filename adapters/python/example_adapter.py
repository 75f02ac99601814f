#!/usr/bin/env python3
"""example_adapter.py — an autoreview adapter for a Python gate: the starting point.

    autoreview smoke --profile baseline -- python3 adapters/python/example_adapter.py
    autoreview check --profile baseline -- python3 adapters/python/example_adapter.py
    autoreview check --profile resilient -- python3 adapters/python/example_adapter.py
    python3 adapters/python/example_adapter.py --decide < spec/fixtures/replay.jsonl

autoreview_kit does everything but the gate: the protocol loop, the session and its presets, the
scripted reviewer, downstream listeners, the approval service, abort signals, the tool runtime and
the outcome. This file only says which gate to check, what it is called, which rule values (or
profiles) it implements, and what it can observe. Run from this directory it uses the kit beside it; copied
elsewhere, the kit installed with ``pip install ./adapters/python``.
"""

import sys

from autoreview_kit import __version__, serve

# ------------------------------------------------------------------------------------------------
# >>> PLUG YOUR GATE IN HERE <<<
#
# A gate is installed the way a host installs it: ``install(host, restored)`` registers the Auto
# preset and returns an integration with ``listener(call, call_next, env)``, ``close()``,
# ``wait_closed()`` and, if it counts failures, ``consecutive_failures(session)`` (autoreview_kit.api
# documents each). Replace the example with yours, e.g.
#
#     from my_gate.autoreview import install_for_checks as install
#
# where the function maps the kit's services onto the ones your integration takes:
#   host.rules["reader"], host.rules["failures"], ...  -> the run's rules: decide by these, never by
#                                        host.profile (a name, for logs); autoreview_kit.rules
#                                        says what each value means
#   host.presets.current / .select / .register_auto     -> your permission presets
#   host.approval.override_of(s) / .effective_policy(s)  -> your approval policy
#   host.sessions.list()                 -> the live sessions your disposal walks
#   host.sandbox_policy.mode_of(s) / .confines_reads(s) / .set_sandbox_mode(s, mode)
#                                        -> your sandbox policy (rule ``confinement``)
#   host.approval.on_request(listener, prepend=True) / host.post_execute.register(listener)
#                                        -> your approval service's request listeners and your
#                                        tools/post-execute hook (rule ``body_approvals``)
#   host.ensure_working_directory(s)     -> the deployment's working directory (resilient profile)
#   host.clock                           -> timers for deadlines (virtual time: never real sleeps)
# and, per call, what the listener's ``env`` adds:
#   env.llm.request(...)                 -> your LLM client (returns chunks: Block, Finish, Usage)
#   env.tools.header_schemas(call) / .registry_schemas(call)   -> request header and live registry
#   call.agent.session.working_directory / .log.pending_action(call)  -> header and session log
# Call env.observe.review_failure(failure_class, message, implementation_defined) wherever your
# gate logs a reviewer failure (the outcome's review.failure comes from it).
# ------------------------------------------------------------------------------------------------
from autoreview_kit.example_gate import IMPLEMENTED_RULES, install

if __name__ == "__main__":
    sys.exit(
        serve(
            implementation={
                "name": "example-gate-python",  # your package, e.g. "acme-auto-review"
                "version": __version__,  # its version (the example's is the kit's)
                "language": "python",
            },
            # The values of each rule your gate implements (autoreview_kit.RULE_VALUES lists them
            # all): the runner checks it against every profile whose rule values are all listed,
            # one written after your gate included. The example implements every value. A gate
            # that implements only the shipped behaviour lists one value a rule, e.g.
            #   rules={"reader": ("strict",), "failure_text": ("javascript",), ...},
            rules=IMPLEMENTED_RULES,
            # The profiles your gate can be checked against by name, if it does not list rules
            # (or besides them), e.g. ("baseline",). Deciding by rule, the example names none.
            profiles=(),
            # What your gate can observe (protocol 2). List only what it can express: a case that
            # needs something left out reads "not applicable" instead of failing or passing.
            #   "sessions"     several calls and lifecycle events in one installation: your gate
            #                  keeps its state itself, and close()/wait_closed() really dispose of it;
            #   "requests"     each reviewer request goes through env.llm.request, which records its
            #                  route, temperature, tools, session id and whether it is a repair;
            #   "session-log"  your gate reads session.working_directory and log.pending_action(call);
            #   "confinement"  your gate keeps the session's sandbox mode through host.sandbox_policy
            #                  (mode_of, confines_reads, set_sandbox_mode) and its presets, and lets
            #                  a rejected change of mode raise out of its listener.
            #   "body-approvals" your gate sees the approval requests a tool body raises while it
            #                  runs (host.approval.on_request) and when a call's result is produced
            #                  (host.post_execute), and answers them as its rule body_approvals says.
            #   "json-retries" your gate reads host.config.max_json_retries where the rules'
            #                  config lists it (rule asks_again "json-retry": the requests after
            #                  a reply that is not valid JSON); without it the runner sends 1.
            observes=("sessions", "requests", "session-log", "temperature", "unfinished-stream", "confinement", "body-approvals", "json-retries"),
            # What your framework cannot express, if anything (protocol 2): "deny-reason" (a
            # denial carries no reason), "ask-reason" (an approval request carries no reason),
            # "abort-signal" (the gate gets no abort signal). Cases that need one are not
            # applicable. The example lacks nothing.
            # lacks=("deny-reason",),
            # The resilient profile's optional features your gate implements (protocol 2): leave
            # this out and the runner holds the gate to every one; list them and a member that
            # only an unlisted one governs is not compared, the report naming it "not implemented":
            #   "failure-hint"   the count of reviewer failures in a row and the hint line;
            #   "failure-class"  the failure class in review.failure and in INFO-FAILED.
            features=("failure-hint", "failure-class"),
            install=install,
        )
    )

"""``python -m autoreview_kit`` (or the ``autoreview-example-adapter`` script): the example gate
served as an adapter, for a kit installed without its source tree."""

import sys

from . import __version__
from .example_gate import IMPLEMENTED_RULES, install
from .protocol import serve


def main() -> int:
    return serve(
        implementation={"name": "example-gate-python", "version": __version__, "language": "python"},
        # The gate decides by rule: it is checked against every profile whose rule values it lists.
        profiles=(),
        rules=IMPLEMENTED_RULES,
        observes=("sessions", "requests", "session-log", "temperature", "unfinished-stream", "confinement", "body-approvals", "json-retries"),
        install=install,
    )


if __name__ == "__main__":
    sys.exit(main())

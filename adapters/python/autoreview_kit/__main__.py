"""``python -m autoreview_kit`` (or the ``autoreview-example-adapter`` script): the example gate
served as an adapter, for a kit installed without its source tree."""

import sys

from .example_gate import install
from .protocol import serve


def main() -> int:
    return serve(
        implementation={"name": "example-gate-python", "version": "0.1.0", "language": "python"},
        profiles=("baseline", "resilient"),
        observes=("sessions", "requests", "session-log"),
        install=install,
    )


if __name__ == "__main__":
    sys.exit(main())

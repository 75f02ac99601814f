"""Puts the kit's source tree first on sys.path, so the tests check this tree even when another
copy of the kit is installed. Imported by every test module before the kit."""

import sys
from pathlib import Path

KIT = Path(__file__).resolve().parent.parent
REPO = KIT.parent.parent
if str(KIT) not in sys.path:
    sys.path.insert(0, str(KIT))

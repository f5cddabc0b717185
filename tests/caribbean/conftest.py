"""Caribbean Stud tests: the independent settlement reference is importable by name (pytest's
importlib mode does not put test directories on sys.path; the module name is unique)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

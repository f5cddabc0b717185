"""Shared helpers for the hold'em tests."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "phh"


@pytest.fixture
def phh_data() -> Path:
    """The shared PHH corpus (skips the test when it is not checked out)."""
    if not DATA.is_dir():
        pytest.skip(f"PHH data not found at {DATA}")
    return DATA

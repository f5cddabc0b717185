"""Shared test configuration."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, settings

# Tests never assert on wall-clock time: the machine is shared and noisy.
settings.register_profile(
    "croupier", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
settings.load_profile("croupier")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"

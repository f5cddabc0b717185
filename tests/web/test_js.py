"""The browser client's JavaScript unit tests (tests/web/js, Node's test runner): the texts
in three languages, money and amounts per locale, hand names, pre-actions, raise presets and
the wording of errors. Skipped, saying why, where Node.js is not installed."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from web_testkit import REPO


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_client_units_pass_under_node() -> None:
    run = subprocess.run(
        ["node", "--test", str(REPO / "tests" / "web" / "js")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout

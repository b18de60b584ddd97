# SPDX-License-Identifier: MIT OR Apache-2.0
"""Shared fixtures: every test gets its own state registry ($GROVE_STATE_DIR) and folder."""
import os
import shutil
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

# Resolved now, before the tests change into their own folders.
_CLI = os.environ.get("GROVE_CLI") or shutil.which("grove")
if _CLI and os.sep in _CLI:
    _CLI = os.path.abspath(_CLI)


@pytest.fixture(autouse=True)
def state_dir(tmp_path, monkeypatch):
    d = tmp_path / "state"
    monkeypatch.setenv("GROVE_STATE_DIR", str(d))
    monkeypatch.chdir(tmp_path)
    return d


@pytest.fixture
def grove_cli():
    """The grove command built next to the library under test (GROVE_CLI), or on PATH."""
    cli = _CLI
    if not cli:
        if os.environ.get("GROVE_REQUIRE_PYTEST") or os.environ.get("GROVE_REQUIRE_VECTORS"):
            pytest.fail("GROVE_CLI is not set and grove is not on PATH")
        pytest.skip("the grove command is not available (set GROVE_CLI)")
    return cli

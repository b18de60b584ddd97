# SPDX-License-Identifier: MIT OR Apache-2.0
"""Every ```python block of docs/python.md runs, in order, in one fresh folder."""
import os
import re

import pytest

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "python.md")


def test_walkthrough_runs(capsys):
    import grove
    if not (grove.dgsp.available and grove.stm.available):
        pytest.skip("the walk-through uses DGSP and STM, left out of this libgrove")
    if not os.path.exists(DOC):
        pytest.skip("docs/python.md is not next to the package (an installed copy)")
    text = open(DOC, encoding="utf-8").read()
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    assert len(blocks) >= 8
    ns = {"__name__": "__walkthrough__"}
    for i, code in enumerate(blocks):
        exec(compile(code, "docs/python.md block %d" % (i + 1), "exec"), ns)
    out = capsys.readouterr().out
    assert "refused:" in out and "revoked" in out and "signatures left" in out

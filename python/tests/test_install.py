# SPDX-License-Identifier: MIT OR Apache-2.0
"""`pip install --no-build-isolation ./python` works offline, and the installed package runs."""
import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def test_pip_install_offline(tmp_path):
    if not (importlib.util.find_spec("pip") and importlib.util.find_spec("setuptools")):
        pytest.skip("pip or setuptools missing (python3-pip, python3-setuptools)")
    src = tmp_path / "src"  # a copy: the build leaves nothing in the source tree
    shutil.copytree(os.path.join(HERE, ".."), src,
                    ignore=shutil.ignore_patterns("tests", "build", "*.egg-info", "__pycache__"))
    target = tmp_path / "site"
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    p = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation",
                        "--no-deps", "--no-index", "--target", str(target), str(src)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    code = ("import grove, sys; s = grove.Signature('SLH-DSA-SHA2-128f'); pk, sk = s.keygen(); "
            "assert s.verify(pk, b'x', s.sign(sk, b'x')); print(grove.__file__)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=str(tmp_path), timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().startswith(str(target))

# SPDX-License-Identifier: MIT OR Apache-2.0
"""XMSS / XMSS^MT keys bound to their file and the state registry: round trips, misuse refused."""
import shutil

import pytest

import grove
from grove import xmss

FAST = ["XMSS-SHA2_10_256", "XMSS-SHAKE256_10_192", "XMSSMT-SHA2_20/4_256",
        "XMSSMT-SHAKE256_20/4_256"]


def test_algorithms_list():
    names = xmss.algorithms()
    assert len(names) == 77 and names[0] == "XMSS-SHA2_10_256"
    assert all(n in names for n in FAST)


@pytest.mark.parametrize("name", FAST + [pytest.param("XMSS-SHA2_16_256", marks=pytest.mark.slow),
                                         pytest.param("XMSSMT-SHA2_40/8_512",
                                                      marks=pytest.mark.slow)])
def test_round_trip(tmp_path, name):
    with grove.XMSSKey.generate(name, tmp_path / "k.key") as key:
        pk = key.public_key
        total = key.remaining
        s1 = key.sign(b"one")
        s2 = key.sign(b"two")
        assert key.remaining == total - 2
        assert key.algorithm == xmss.read_info(tmp_path / "k.key")["algorithm"]
    assert xmss.verify(name, pk, b"one", s1) and xmss.verify(name, pk, b"two", s2)
    assert not xmss.verify(name, pk, b"two", s1)
    bad = bytearray(s1)
    bad[-1] ^= 1
    assert not xmss.verify(name, pk, b"one", bytes(bad))
    assert not xmss.verify(name, pk, b"one", s1[:-1])
    assert s1[:4] != s2[:4] or s1[:8] != s2[:8]  # different indices


def test_state_survives_reopen(tmp_path):
    p = tmp_path / "k.key"
    with grove.XMSSKey.generate("XMSS-SHA2_10_256", p) as key:
        key.sign(b"a")
        left = key.remaining
    with grove.XMSSKey(p) as key:
        assert key.remaining == left
        key.sign(b"b")
        assert key.remaining == left - 1


def test_copied_key_file_is_refused(tmp_path):
    p = tmp_path / "k.key"
    with grove.XMSSKey.generate("XMSS-SHA2_10_256", p) as key:
        key.sign(b"first")
    shutil.copy(p, tmp_path / "backup.key")
    with grove.XMSSKey(p) as key:
        key.sign(b"second")
    with pytest.raises(grove.StateError) as e:
        grove.XMSSKey(tmp_path / "backup.key")
    assert "stale" in str(e.value) or "behind" in str(e.value) or e.value.detail
    # the refused copy can be brought forward explicitly, never back
    with grove.XMSSKey(tmp_path / "backup.key", recover=True) as key:
        info = key.info()
        assert info["index"] >= 2 or info["high_water"] >= 2


def test_second_open_in_one_process_is_refused(tmp_path):
    p = tmp_path / "k.key"
    with grove.XMSSKey.generate("XMSS-SHA2_10_256", p):
        with pytest.raises(grove.StateError):
            grove.XMSSKey(str(p))  # would otherwise wait for the lock forever
    with grove.XMSSKey(p) as key:  # closed: opens again
        key.sign(b"ok")


def test_exhaustion_through_split(tmp_path):
    p = tmp_path / "k.key"
    with grove.XMSSKey.generate("XMSS-SHA2_10_256", p) as key:
        pk = key.public_key
        moved = key.split(2, tmp_path / "part.key")
        assert len(moved) == 2 and moved.stop == 1024
        assert key.remaining == 1022
    with grove.XMSSKey(tmp_path / "part.key") as part:
        sigs = [part.sign(b"x%d" % i) for i in range(2)]
        assert part.remaining == 0
        with pytest.raises(grove.ExhaustedError):
            part.sign(b"one too many")
    assert all(xmss.verify("XMSS-SHA2_10_256", pk, b"x%d" % i, s) for i, s in enumerate(sigs))


def test_misuse(tmp_path):
    with pytest.raises(ValueError):
        grove.XMSSKey.generate("XMSS-SHA2_11_256", tmp_path / "k.key")
    p = tmp_path / "k.key"
    with grove.XMSSKey.generate("XMSS-SHA2_10_256", p) as key:
        pk = key.public_key
        with pytest.raises(TypeError):
            key.sign("str")
        sig = key.sign(b"m")
    with pytest.raises(grove.GroveError):  # never replaces an existing key file
        grove.XMSSKey.generate("XMSS-SHA2_10_256", p)
    with pytest.raises(ValueError):
        key.sign(b"closed")
    with pytest.raises(ValueError):
        xmss.verify("XMSS-SHA2_10_256", pk[:-1], b"m", sig)
    with pytest.raises(grove.GroveIOError):
        grove.XMSSKey(tmp_path / "missing.key")
    (tmp_path / "junk.key").write_bytes(b"junk" * 100)
    with pytest.raises(grove.GroveError):
        grove.XMSSKey(tmp_path / "junk.key")


def test_pkix_xmss(tmp_path):
    with grove.XMSSKey.generate("XMSSMT-SHA2_20/4_256", tmp_path / "k.key") as key:
        pk = key.public_key
    der = grove.files.xmss_public_key_to_der(pk, mt=True)
    assert grove.files.xmss_public_key_from_der(der) == (True, pk)


def test_lifetimes_are_checked(tmp_path):
    reg = grove.Registry(tmp_path / "reg")
    key = grove.XMSSKey.generate("XMSS-SHA2_10_256", tmp_path / "k.key", reg)
    with pytest.raises(ValueError):
        reg.close()  # a key bound to it is open
    key.sign(b"still fine")
    key.close()
    key.close()  # twice is harmless
    reg.close()
    with pytest.raises(ValueError):
        key.sign(b"closed")
    with pytest.raises(ValueError):
        grove.XMSSKey(tmp_path / "k.key", reg)

# SPDX-License-Identifier: MIT OR Apache-2.0
"""Stateless signatures: every algorithm round trip, tampering, options, misuse."""
import pytest

import grove

SLOW = ("256s", "192s", "CROSS-RSDP-5", "CROSS-RSDPG-5", "CROSS-RSDP-3", "CROSS-RSDPG-3")


def is_slow(name):
    return any(s in name for s in SLOW) or name.endswith("s-simple") and "128" not in name


ALGS = grove.Signature.algorithms()


def test_algorithm_list_matches_the_library():
    assert len(ALGS) == 12 + 12 + 18 + 2
    assert "SLH-DSA-SHA2-128f" in ALGS and "sphincs-shake-256f-simple" in ALGS
    assert "CROSS-RSDP-1-fast" in ALGS and "BLS12-381-min-pk" in ALGS
    assert len(set(ALGS)) == len(ALGS)


@pytest.mark.parametrize("name", [pytest.param(a, marks=pytest.mark.slow) if is_slow(a) else a
                                  for a in ALGS])
def test_round_trip_and_tampering(name):
    s = grove.Signature(name)
    pk, sk = s.keygen()
    assert len(pk) == s.public_key_size and len(sk) == s.secret_key_size
    msg = b"grove python round trip " + name.encode()
    sig = s.sign(sk, msg)
    assert 0 < len(sig) <= s.signature_size
    assert s.verify(pk, msg, sig) is True
    assert s.verify(pk, msg + b"!", sig) is False
    bad = bytearray(sig)
    bad[len(bad) // 2] ^= 1
    assert s.verify(pk, msg, bytes(bad)) is False
    assert s.verify(pk, msg, sig[:-1]) is False
    assert s.verify(pk, msg, sig + b"\0") is False
    assert s.verify(pk, msg, b"") is False
    pk2, _ = s.keygen()
    assert s.verify(pk2, msg, sig) is False


def test_unknown_name_is_value_error():
    with pytest.raises(ValueError):
        grove.Signature("SLH-DSA-SHA2-129f")
    with pytest.raises(ValueError):
        grove.Signature("slh-dsa-sha2-128f")  # names are exact
    with pytest.raises(TypeError):
        grove.Signature(5)


def test_misuse_raises():
    s = grove.Signature("SLH-DSA-SHAKE-128f")
    pk, sk = s.keygen()
    sig = s.sign(sk, b"m")
    with pytest.raises(TypeError):
        s.sign(sk, "a str is not bytes")
    with pytest.raises(TypeError):
        s.verify(pk, b"m", "sig")
    with pytest.raises(TypeError):
        s.sign(None, b"m")
    with pytest.raises(ValueError):
        s.sign(sk[:-1], b"m")
    with pytest.raises(ValueError):
        s.verify(pk + b"\0", b"m", sig)
    # bytearray and memoryview are accepted, and the bytearray can be wiped
    ska = bytearray(sk)
    assert s.verify(memoryview(pk), bytearray(b"m"), s.sign(ska, memoryview(b"m")))
    grove.wipe(ska)
    assert ska == bytearray(len(sk))
    with pytest.raises(TypeError):
        grove.wipe(b"immutable")


def test_slhdsa_context_and_prehash():
    plain = grove.Signature("SLH-DSA-SHA2-128f")
    ctx = grove.Signature("SLH-DSA-SHA2-128f", context=b"my-app-v1")
    other = grove.Signature("SLH-DSA-SHA2-128f", context=b"my-app-v2")
    ph = grove.Signature("SLH-DSA-SHA2-128f", context=b"my-app-v1", prehash="SHA2-256")
    pk, sk = plain.keygen()
    m = b"context matters"
    s_ctx = ctx.sign(sk, m)
    assert ctx.verify(pk, m, s_ctx)
    assert not other.verify(pk, m, s_ctx)
    assert not plain.verify(pk, m, s_ctx)
    assert plain.verify(pk, m, plain.sign(sk, m))
    s_ph = ph.sign(sk, m)
    assert ph.verify(pk, m, s_ph)
    assert not ctx.verify(pk, m, s_ph)
    assert not grove.Signature("SLH-DSA-SHA2-128f", context=b"my-app-v1",
                               prehash="SHA2-512").verify(pk, m, s_ph)
    with pytest.raises(ValueError):
        grove.Signature("SLH-DSA-SHA2-128f", context=bytes(256))
    with pytest.raises(ValueError):
        grove.Signature("SLH-DSA-SHA2-128f", prehash="MD5")
    with pytest.raises(ValueError):
        grove.Signature("sphincs-sha2-128f-simple", context=b"x")
    with pytest.raises(ValueError):
        grove.Signature("CROSS-RSDP-1-fast", context=b"x")


def test_cross_strategies_interoperate():
    fast = grove.Signature("CROSS-RSDP-1-fast", strategy="fast")
    small = grove.Signature("CROSS-RSDP-1-fast", strategy="small-memory")
    pk, sk = fast.keygen()
    m = b"strategies give the same scheme"
    assert small.verify(pk, m, fast.sign(sk, m))
    s2 = small.sign(sk, m)
    assert fast.verify(pk, m, s2) and grove.Signature("CROSS-RSDP-1-fast").verify(pk, m, s2)
    assert not small.verify(pk, m + b"x", s2)
    with pytest.raises(ValueError):
        grove.Signature("CROSS-RSDP-1-fast", strategy="tiny")
    with pytest.raises(ValueError):
        grove.Signature("SLH-DSA-SHA2-128f", strategy="fast")


def test_errors_mirror_grove_status():
    assert issubclass(grove.VerifyError, grove.GroveError)
    assert issubclass(grove.RevokedError, grove.VerifyError)
    e = grove.StateError(-15)
    assert e.status == -15 and e.name and str(e)
    assert grove.ExhaustedError(-8).status == -8
    assert grove.version() == grove.__version__


@pytest.mark.parametrize("name", ["BLS12-381-min-pk", "CROSS-RSDP-1-fast"])
def test_malformed_public_key_is_an_encoding_error(name):
    s = grove.Signature(name)
    pk, sk = s.keygen()
    sig = s.sign(sk, b"m")
    with pytest.raises(grove.EncodingError) as e:
        s.verify(b"\xff" * len(pk), b"m", sig)
    assert e.value.status == -3 and e.value.name

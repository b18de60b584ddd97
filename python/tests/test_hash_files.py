# SPDX-License-Identifier: MIT OR Apache-2.0
"""Hashes against hashlib; envelopes and the standard encodings."""
import hashlib

import pytest

import grove
from grove import files


@pytest.mark.parametrize("name,ref", [("sha224", "sha224"), ("sha256", "sha256"),
                                      ("sha384", "sha384"), ("sha512", "sha512"),
                                      ("sha3-256", "sha3_256"), ("sha3-512", "sha3_512")])
def test_hash_matches_hashlib(name, ref):
    data = bytes(range(256)) * 5
    assert grove.hash.digest(name, data) == hashlib.new(ref, data).digest()
    h = grove.hash.Hash(name)
    for i in range(0, len(data), 77):
        h.update(data[i:i + 77])
    assert h.hexdigest() == hashlib.new(ref, data).hexdigest()


def test_shake_lengths_and_misuse():
    assert grove.hash.digest("shake128", b"abc") == hashlib.shake_128(b"abc").digest(32)
    assert grove.hash.digest("shake256", b"abc", 100) == hashlib.shake_256(b"abc").digest(100)
    assert grove.hash.digest("SHA-256", b"") == hashlib.sha256().digest()
    with pytest.raises(ValueError):
        grove.hash.Hash("md5")
    with pytest.raises(ValueError):
        grove.hash.digest("sha256", b"", 16)
    h = grove.hash.Hash("sha256", b"x")
    h.digest()
    with pytest.raises(ValueError):
        h.update(b"y")
    assert len(grove.hash.algorithms()) == 8


def test_envelope_round_trip_and_damage():
    s = grove.Signature("SLH-DSA-SHA2-128f")
    pk, sk = s.keygen()
    text = files.encode("SLH-DSA", s.name, "PUBLIC KEY", pk, public_key=pk)
    assert text.startswith(b"-----BEGIN GROVE SLH-DSA PUBLIC KEY-----")
    env = files.decode(text, scheme="SLH-DSA", type="PUBLIC KEY")
    assert env.body == pk and env.set == s.name and env.form == "armored"
    assert env.key_id == files.key_id("SLH-DSA", s.name, pk)
    binary = files.encode("SLH-DSA", s.name, "SECRET KEY", sk, public_key=pk, armored=False)
    assert files.is_grove_file(binary) and files.decode(binary).body == sk
    bad = bytearray(binary)
    bad[-40] ^= 1
    with pytest.raises(grove.EncodingError):
        files.decode(bytes(bad))
    with pytest.raises(grove.EncodingError):
        files.decode(text, type="SIGNATURE")
    with pytest.raises(grove.EncodingError):
        files.decode(b"not a grove file")


def test_pkix_slhdsa_and_pem():
    s = grove.Signature("SLH-DSA-SHAKE-128f")
    pk, sk = s.keygen()
    der = files.slhdsa_public_key_to_der(s.name, pk)
    assert files.slhdsa_public_key_from_der(der) == (s.name, None, pk)
    pem = files.pem_encode("PUBLIC KEY", der)
    assert pem.startswith("-----BEGIN PUBLIC KEY-----\n")
    assert files.pem_decode("PUBLIC KEY", pem) == der
    skder = files.slhdsa_secret_key_to_der(s.name, sk)
    assert files.slhdsa_secret_key_from_der(skder) == (s.name, None, sk)
    hder = files.slhdsa_public_key_to_der(s.name, pk, prehash="SHAKE128")
    assert files.slhdsa_public_key_from_der(hder)[1] == "SHAKE128"
    with pytest.raises(grove.EncodingError):
        files.slhdsa_public_key_from_der(der + b"\0")
    with pytest.raises(grove.EncodingError):
        files.pem_decode("PRIVATE KEY", pem)

# SPDX-License-Identifier: MIT OR Apache-2.0
"""Mithril certificate chains: the real devnet chain of the shared vectors, mutations of it, one
certificate at a time, and agreement with `grove mithril verify-chain`."""
import json
import os
import subprocess

import pytest

import grove
from grove import mithril

VEC = os.environ.get("GROVE_VECTORS_DIR", "")
CHAIN = os.path.join(VEC, "mithril-chain", "certificates.json")
GENESIS = os.path.join(VEC, "mithril-chain", "genesis.vkey")


@pytest.fixture(scope="module")
def chain():
    if not mithril.available():
        pytest.skip("libgrove built without Mithril")
    if not (VEC and os.path.exists(CHAIN)):
        if os.environ.get("GROVE_REQUIRE_VECTORS"):
            pytest.fail("mithril-chain vectors missing (GROVE_VECTORS_DIR)")
        pytest.skip("mithril-chain vectors not available (GROVE_VECTORS_DIR)")
    with open(CHAIN, "rb") as f:
        text = f.read()
    with open(GENESIS) as f:
        genesis = f.read()
    return text, genesis


def test_real_chain_verifies(chain):
    text, genesis = chain
    res = mithril.verify_chain(text, genesis)
    assert res.valid
    assert len(res.certificates) == 43
    assert all(v.rule == "ok" for v in res.certificates)
    assert {v.epoch for v in res.certificates} == set(range(15, 26))
    # the same through grove.stm's entry point
    assert grove.stm.verify_certificate_chain(text, genesis).valid


def test_mutated_multisignature_is_named(chain):
    text, genesis = chain
    certs = json.loads(text)
    victim = next(h for h, c in certs.items() if not c.get("genesis_signature"))
    ms = certs[victim]["multi_signature"]
    certs[victim]["multi_signature"] = ms[:40] + ("0" if ms[40] != "0" else "1") + ms[41:]
    res = mithril.verify_chain(json.dumps(certs), genesis)
    assert not res.valid
    bad = {v.hash: v for v in res.certificates if not v.valid}
    # the hex now spells different JSON: it no longer decodes, or the hash (which covers it) fails
    assert bad[victim].rule in ("decode", "hash")


def test_wrong_genesis_key(chain):
    text, genesis = chain
    other = bytes(range(32))
    # not necessarily a valid point: either refused as a key or every certificate fails
    try:
        res = mithril.verify_chain(text, other)
    except grove.EncodingError:
        return
    assert not res.valid
    assert any(v.rule == "genesis_signature" for v in res.certificates)


def test_one_at_a_time(chain):
    text, genesis = chain
    certs = json.loads(text)
    vk = mithril.genesis_key(genesis)
    assert len(vk) == 32
    by_hash = {h: mithril.Certificate(json.dumps(c)) for h, c in certs.items()}
    verified = {}

    def walk(h):
        if h in verified:
            return verified[h]
        c = by_hash[h]
        prev = None
        if not c.is_genesis:
            assert walk(c.previous_hash).valid
            prev = by_hash[c.previous_hash]
        verified[h] = c.verify(prev, vk)
        return verified[h]

    for h in certs:
        assert walk(h).valid, h
    # a certificate against the wrong predecessor fails on a link rule
    nongen = [c for c in by_hash.values() if not c.is_genesis]
    c = nongen[0]
    wrong = next(x for x in nongen if x.hash != c.previous_hash and x.hash != c.hash)
    v = c.verify(wrong, vk)
    assert not v.valid and v.rule in ("previous_hash", "avk", "parameters", "missing_epoch")
    with pytest.raises(TypeError):
        c.verify("not a certificate", vk)


def test_not_certificate_json(chain):
    _, genesis = chain
    with pytest.raises(grove.EncodingError):
        mithril.verify_chain(b"not json at all", genesis)
    with pytest.raises(grove.EncodingError):
        mithril.genesis_key("zz")
    with pytest.raises(TypeError):
        mithril.verify_chain(12, genesis)


def test_cli_agrees(chain, grove_cli):
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}  # not into the CLI
    r = subprocess.run([grove_cli, "mithril", "verify-chain", "--certificates", CHAIN,
                        "--genesis-key", GENESIS], capture_output=True, env=env)
    assert r.returncode == 0, r.stderr

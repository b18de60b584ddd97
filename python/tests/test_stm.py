# SPDX-License-Identifier: MIT OR Apache-2.0
"""An STM group life: keys, registration, signing, aggregation, verification, encodings."""
import json

import pytest

import grove
from grove import stm

pytestmark = pytest.mark.skipif(not stm.available, reason="libgrove built without STM")

PARAMS = stm.Parameters(m=20, k=5, phi_f=0.9)


def make_group(stakes):
    parties = [stm.keygen() for _ in stakes]
    with stm.KeyRegistration() as reg:
        for (vkpop, _), stake in zip(parties, stakes):
            reg.register(stake, vkpop)
        with pytest.raises(grove.ExistsError):
            reg.register(1, parties[0][0])
        assert len(reg) == len(stakes)
        closed = reg.close_registration()
    return parties, closed


def test_group_life():
    parties, closed = make_group([10, 20, 30, 40])
    assert len(closed) == 4 and closed.total_stake == 100 and len(closed.avk) == 48
    msg = b"mithril snapshot digest"
    singles = []
    for vkpop, sk in parties:
        with stm.Signer(PARAMS, sk, closed) as s:
            assert s.index == closed.index_of(vkpop)
            try:
                sig = s.sign(msg)
            except grove.LotteryLostError:
                continue
            assert stm.verify_single(PARAMS, sig, msg, closed)
            assert not stm.verify_single(PARAMS, sig, msg + b"x", closed)
            singles.append(sig)
    assert singles
    agg = stm.aggregate(PARAMS, singles, msg, closed)
    avk = closed.avk
    assert stm.verify_aggregate(PARAMS, agg, msg, avk)
    assert not stm.verify_aggregate(PARAMS, agg, msg + b"x", avk)
    for t in (1, 2):
        assert stm.verify_aggregate(PARAMS, agg, msg, avk, threads=t)
        assert not stm.verify_aggregate(PARAMS, agg, msg + b"x", avk, threads=t)
    bad = bytearray(agg)
    bad[len(bad) // 2] ^= 1
    assert not stm.verify_aggregate(PARAMS, bytes(bad), msg, avk)
    _, other = make_group([10, 20])
    assert not stm.verify_aggregate(PARAMS, agg, msg, other.avk)  # another registration
    # the other encodings
    js = stm.aggregate_to_json(agg)
    assert "signatures" in json.loads(js)
    assert stm.aggregate_from_json(js) == agg
    cbor = stm.aggregate_to_cbor(agg)
    assert cbor[0] == 1 and stm.verify_aggregate(PARAMS, cbor, msg, avk)
    # the closed registration round-trips
    again = stm.ClosedRegistration.from_bytes(closed.to_bytes())
    assert again.avk == avk
    # certificate chains are grove.mithril's (test_mithril.py); garbage is refused cleanly
    if grove.mithril.available():
        with pytest.raises(grove.EncodingError):
            stm.verify_certificate_chain(b"[1, 2]", bytes(32))


def test_not_enough_and_misuse():
    parties, closed = make_group([1, 1])
    strict = stm.Parameters(m=4, k=4, phi_f=0.2)
    sigs = []
    for _, sk in parties:
        with stm.Signer(strict, sk, closed) as s:
            try:
                sigs.append(s.sign(b"m"))
            except grove.LotteryLostError:
                pass
    with pytest.raises(grove.NotEnoughError):
        stm.aggregate(strict, sigs, b"m", closed)
    with pytest.raises(grove.InvalidArgumentError):
        stm.Signer(stm.Parameters(m=10, k=11, phi_f=0.5), parties[0][1], closed)
    outsider_vk, outsider_sk = stm.keygen()
    with pytest.raises(grove.NotFoundError):
        stm.Signer(PARAMS, outsider_sk, closed)
    with stm.KeyRegistration() as reg:
        bad = bytearray(outsider_vk)
        bad[-1] ^= 1
        with pytest.raises(grove.GroveError):
            reg.register(5, bytes(bad))
        with pytest.raises(ValueError):
            reg.register(5, outsider_vk[:-1])
        with pytest.raises(ValueError):
            reg.register(-1, outsider_vk)
    with pytest.raises(ValueError):
        stm.keygen(b"short seed")
    assert stm.keygen(bytes(32)) == stm.keygen(bytes(32))

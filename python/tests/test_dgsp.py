# SPDX-License-Identifier: MIT OR Apache-2.0
"""A DGSP group life through the three roles, and a copied wallet refused."""
import shutil

import pytest

import grove
from grove import dgsp

pytestmark = pytest.mark.skipif(not dgsp.available, reason="libgrove built without DGSP")


def join(manager, name, path, count=2):
    cfg = manager.config
    mid, cid = manager.join(name)
    w = dgsp.Wallet.create(cfg, path, mid, cid, manager.public_key)
    keys = w.request(count)
    w.add_certificates(manager.certify(mid, cid, keys), keys, manager.public_key)
    assert w.available == count
    return w, mid, cid


def test_group_life(tmp_path):
    cfg = dgsp.Config("sha2-128f")
    assert "sha2-128f" in dgsp.parameter_sets() and cfg.name == "sha2-128f/r3.1/grove"
    with dgsp.Manager.create(cfg, tmp_path / "group.db") as m:
        alice, a_id, a_cid = join(m, "alice", tmp_path / "alice.wallet")
        bob, b_id, _ = join(m, "bob", tmp_path / "bob.wallet")
        with pytest.raises(grove.ExistsError):
            m.join("alice")
        msg = b"minutes of the meeting"
        sa = alice.sign(msg)
        sb = bob.sign(msg)
        assert sa != sb and len(sa) == cfg.signature_size
        with dgsp.Verifier(cfg, m.public_key) as v:
            assert v.verify(sa, msg) and v.verify(sb, msg)
            assert not v.verify(sa, msg + b"?")
            bad = bytearray(sa)
            bad[5] ^= 1
            assert v.status(bytes(bad), msg) == "invalid"
            assert not v.verify(sa[:-1], msg)
            mid, name, pi = m.open(sa, msg)
            assert (mid, name) == (a_id, "alice")
            assert v.judge(sa, msg, mid, pi)
            assert not v.judge(sa, msg, b_id, pi)
        with pytest.raises(grove.VerifyError):
            m.open(sa, msg + b"?")
        # a wrong credential is refused
        with pytest.raises(grove.DeniedError):
            m.certify(a_id, bytes(len(a_cid)), alice.request(1))
        # revocation: alice's signatures stop verifying under the published list
        assert m.revoke([a_id]) == 1
        assert m.revoke([a_id]) == 0
        with pytest.raises(grove.RevokedError):
            m.certify(a_id, a_cid, alice.request(1))
        rl = m.revocation_list(seq=1, time=1700000000)
        with dgsp.Verifier(cfg, m.public_key, rl) as v:
            assert v.revocations_seq == 1 and v.revoked_count >= 2
            assert v.status(sa, msg) == "revoked" and not v.verify(sa, msg)
            assert v.verify(sb, msg)
        forged = bytearray(rl)
        forged[-1] ^= 1
        with pytest.raises(grove.VerifyError):
            dgsp.Verifier(cfg, m.public_key, bytes(forged))
        # a wallet runs out
        bob.sign(b"second")
        with pytest.raises(grove.ExhaustedError):
            bob.sign(b"third")
        alice.close()
        bob.close()


def test_copied_wallet_is_refused(tmp_path):
    cfg = dgsp.Config("sha2-128f")
    with dgsp.Manager.create(cfg) as m:
        w, _, _ = join(m, "carol", tmp_path / "carol.wallet", count=2)
        w.close()
        shutil.copy(tmp_path / "carol.wallet", tmp_path / "copy.wallet")
        with dgsp.Wallet(tmp_path / "carol.wallet") as w:
            w.sign(b"first")
        with dgsp.Wallet(tmp_path / "copy.wallet") as c:
            with pytest.raises(grove.StateError):
                c.sign(b"again with the used certificate")


def test_restored_store_is_refused(tmp_path):
    cfg = dgsp.Config("sha2-128f")
    db = tmp_path / "group.db"
    m = dgsp.Manager.create(cfg, db)
    pk, sk = m.public_key, m.secret_key
    m.close()
    shutil.copy(db, tmp_path / "backup.db")
    with dgsp.Manager(cfg, pk, sk, db) as m:
        m.join("dave")
    shutil.copy(tmp_path / "backup.db", db)
    for suffix in ("-wal", "-shm"):
        p = tmp_path / ("group.db" + suffix)
        if p.exists():
            p.unlink()
    with dgsp.Manager(cfg, pk, sk, db) as m:
        with pytest.raises(grove.StateError):
            m.join("erin")


def test_misuse(tmp_path):
    with pytest.raises(ValueError):
        dgsp.Config("sha2-999f")
    cfg = dgsp.Config("sha2-128f")
    with dgsp.Manager.create(cfg) as m:
        with pytest.raises(TypeError):
            m.join(b"bytes name")
        with pytest.raises(ValueError):
            dgsp.Verifier(cfg, m.public_key[:-1])
        with pytest.raises(ValueError):
            m.certify(0, bytes(cfg.n), b"")
    with pytest.raises(ValueError):
        m.join("closed")

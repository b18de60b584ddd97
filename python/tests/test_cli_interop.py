# SPDX-License-Identifier: MIT OR Apache-2.0
"""The Python package and the grove command read each other's files."""
import os
import subprocess

import pytest

import grove
from grove import files, xmss


def run(cli, *args, ok=True):
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}  # not into the CLI
    p = subprocess.run([cli, *map(str, args)], capture_output=True, text=True, timeout=300,
                       env=env)
    if ok:
        assert p.returncode == 0, (args, p.stdout, p.stderr)
    return p


def test_slhdsa_files_both_ways(tmp_path, grove_cli):
    name = "SLH-DSA-SHA2-128f"
    msg = tmp_path / "msg.txt"
    msg.write_bytes(b"release 1.2.3\n")
    # the CLI's keys, read and used by Python
    run(grove_cli, "slhdsa", "keygen", "--params", name, "--pk", tmp_path / "cli.pub",
        "--sk", tmp_path / "cli.sec")
    pk_env = files.decode((tmp_path / "cli.pub").read_bytes(), scheme="SLH-DSA",
                          type="PUBLIC KEY")
    sk_env = files.decode((tmp_path / "cli.sec").read_bytes(), scheme="SLH-DSA",
                          type="SECRET KEY")
    assert pk_env.set == name and pk_env.key_id == sk_env.key_id
    s = grove.Signature(name)
    sig = s.sign(sk_env.body, msg.read_bytes())
    (tmp_path / "py.sig").write_bytes(files.encode("SLH-DSA", name, "SIGNATURE", sig,
                                                   public_key=pk_env.body))
    run(grove_cli, "slhdsa", "verify", "--pk", tmp_path / "cli.pub", "--msg", msg,
        "--sig", tmp_path / "py.sig")
    # a tampered message: the CLI says invalid (exit 1)
    (tmp_path / "other.txt").write_bytes(b"release 1.2.4\n")
    assert run(grove_cli, "slhdsa", "verify", "--pk", tmp_path / "cli.pub", "--msg",
               tmp_path / "other.txt", "--sig", tmp_path / "py.sig", ok=False).returncode == 1
    # Python's keys, used by the CLI; the CLI's signature verified by Python
    pk, sk = s.keygen()
    (tmp_path / "py.pub").write_bytes(files.encode("SLH-DSA", name, "PUBLIC KEY", pk,
                                                   public_key=pk))
    (tmp_path / "py.sec").write_bytes(files.encode("SLH-DSA", name, "SECRET KEY", sk,
                                                   public_key=pk))
    run(grove_cli, "slhdsa", "sign", "--sk", tmp_path / "py.sec", "--msg", msg,
        "--sig", tmp_path / "cli.sig")
    env = files.decode((tmp_path / "cli.sig").read_bytes(), type="SIGNATURE")
    assert env.key_id == files.key_id("SLH-DSA", name, pk)
    assert s.verify(pk, msg.read_bytes(), env.body)
    assert not s.verify(pk, b"something else", env.body)


def test_xmss_key_files_both_ways(tmp_path, grove_cli):
    name = "XMSS-SHA2_10_256"
    msg = tmp_path / "fw.bin"
    msg.write_bytes(b"\x7fELF firmware")
    # a key file made by Python, signed with by the CLI, then by Python again
    with grove.XMSSKey.generate(name, tmp_path / "py.key") as key:
        pk = key.public_key
        key.sign(b"python first")
    (tmp_path / "py.pub").write_bytes(files.encode("XMSS", name, "PUBLIC KEY", pk,
                                                   public_key=pk))
    run(grove_cli, "xmss", "sign", "--sk", tmp_path / "py.key", "--msg", msg,
        "--sig", tmp_path / "cli.sig")
    sig = files.decode((tmp_path / "cli.sig").read_bytes(), scheme="XMSS", type="SIGNATURE").body
    assert xmss.verify(name, pk, msg.read_bytes(), sig)
    assert int.from_bytes(sig[:4], "big") == 1  # the CLI took the index after Python's
    with grove.XMSSKey(tmp_path / "py.key") as key:
        s3 = key.sign(msg.read_bytes())
        assert int.from_bytes(s3[:4], "big") == 2
    (tmp_path / "py.sig").write_bytes(files.encode("XMSS", name, "SIGNATURE", s3, public_key=pk))
    run(grove_cli, "xmss", "verify", "--pk", tmp_path / "py.pub", "--msg", msg,
        "--sig", tmp_path / "py.sig")
    # a key file made by the CLI, used by Python; a stale copy refused by both
    run(grove_cli, "xmss", "keygen", "--params", name, "--pk", tmp_path / "cli.pub",
        "--sk", tmp_path / "cli.key")
    (tmp_path / "cli.key.bak").write_bytes((tmp_path / "cli.key").read_bytes())
    cli_pk = files.decode((tmp_path / "cli.pub").read_bytes(), type="PUBLIC KEY").body
    with grove.XMSSKey(tmp_path / "cli.key") as key:
        assert key.public_key == cli_pk
        assert xmss.verify(name, cli_pk, b"hi", key.sign(b"hi"))
    with pytest.raises(grove.StateError):
        grove.XMSSKey(tmp_path / "cli.key.bak")
    p = run(grove_cli, "xmss", "sign", "--sk", tmp_path / "cli.key.bak", "--msg", msg,
            "--sig", tmp_path / "stale.sig", ok=False)
    assert p.returncode == 3


def test_cli_describes_python_files(tmp_path, grove_cli):
    s = grove.Signature("CROSS-RSDP-1-fast")
    pk, _ = s.keygen()
    (tmp_path / "k.pub").write_bytes(files.encode("CROSS", s.name, "PUBLIC KEY", pk,
                                                  public_key=pk, armored=False))
    out = run(grove_cli, "info", tmp_path / "k.pub").stdout
    assert "CROSS" in out and "PUBLIC KEY" in out.upper()


@pytest.mark.skipif(not grove.dgsp.available, reason="libgrove built without DGSP")
def test_dgsp_files_verified_by_the_cli(tmp_path, grove_cli):
    from grove import dgsp
    cfg = dgsp.Config("sha2-128f")
    with dgsp.Manager.create(cfg) as m:
        mid, cid = m.join("alice")
        with dgsp.Wallet.create(cfg, None, mid, cid) as w:
            keys = w.request(1)
            w.add_certificates(m.certify(mid, cid, keys), keys, m.public_key)
            sig = w.sign(b"group message\n")
        m.revoke([mid])
        rl = m.revocation_list(seq=1, time=1)
        pk = m.public_key
    (tmp_path / "m.pub").write_bytes(dgsp.encode_file(cfg, "PUBLIC KEY", pk))
    (tmp_path / "m.sig").write_bytes(dgsp.encode_file(cfg, "SIGNATURE", sig, pk))
    (tmp_path / "g.rl").write_bytes(dgsp.encode_file(cfg, "REVOCATIONS", rl, pk))
    (tmp_path / "msg.txt").write_bytes(b"group message\n")
    run(grove_cli, "dgsp", "verify", "--pk", tmp_path / "m.pub", "--msg", tmp_path / "msg.txt",
        "--sig", tmp_path / "m.sig")
    p = run(grove_cli, "dgsp", "verify", "--pk", tmp_path / "m.pub", "--msg",
            tmp_path / "msg.txt", "--sig", tmp_path / "m.sig", "--revocations",
            tmp_path / "g.rl", ok=False)
    assert p.returncode == 1
    c2, t, body = dgsp.decode_file((tmp_path / "m.sig").read_bytes(), "SIGNATURE")
    assert (c2.name, t, body) == (cfg.name, "SIGNATURE", sig)
    with pytest.raises(grove.EncodingError):
        dgsp.decode_file((tmp_path / "m.sig").read_bytes(), "PUBLIC KEY")


@pytest.mark.skipif(not grove.stm.available, reason="libgrove built without STM")
def test_stm_files_both_ways(tmp_path, grove_cli):
    from grove import stm
    params = stm.Parameters(m=20, k=5, phi_f=0.9)
    assert stm.Parameters.from_bytes(params.to_bytes()) == params
    parties = [stm.keygen() for _ in range(3)]
    with stm.KeyRegistration() as reg:
        for i, (vkpop, _) in enumerate(parties):
            reg.register(10 * (i + 1), vkpop)
        closed = reg.close_registration()
    msg = b"snapshot\n"
    sigs = []
    for _, sk in parties:
        with stm.Signer(params, sk, closed) as s:
            try:
                sigs.append(s.sign(msg))
            except grove.LotteryLostError:
                pass
    agg = stm.aggregate(params, sigs, msg, closed)
    avk = closed.avk
    (tmp_path / "params.stm").write_bytes(files.encode("STM", "", "PARAMETERS",
                                                       params.to_bytes()))
    (tmp_path / "group.avk").write_bytes(files.encode("STM", "", "AGGREGATE KEY", avk,
                                                      public_key=avk))
    (tmp_path / "msg.agg").write_bytes(files.encode("STM", "", "AGGREGATE SIGNATURE", agg,
                                                    public_key=avk))
    (tmp_path / "msg.txt").write_bytes(msg)
    (tmp_path / "other.txt").write_bytes(b"other\n")
    args = ["stm", "verify", "--params", tmp_path / "params.stm", "--avk",
            tmp_path / "group.avk", "--sig", tmp_path / "msg.agg", "--msg"]
    run(grove_cli, *args, tmp_path / "msg.txt")
    assert run(grove_cli, *args, tmp_path / "other.txt", ok=False).returncode == 1
    # the CLI's parameters and keys read by Python
    run(grove_cli, "stm", "setup", "--m", 30, "--k", 7, "--phi-f", 0.5, "--out",
        tmp_path / "cli.params")
    body = files.decode((tmp_path / "cli.params").read_bytes(), scheme="STM",
                        type="PARAMETERS").body
    assert stm.Parameters.from_bytes(body) == stm.Parameters(30, 7, 0.5)
    run(grove_cli, "stm", "keygen", "--sk", tmp_path / "p.sk", "--pk", tmp_path / "p.pub")
    vkpop = files.decode((tmp_path / "p.pub").read_bytes(), type="PUBLIC KEY").body
    with stm.KeyRegistration() as reg:
        reg.register(1, vkpop)  # its proof of possession checks

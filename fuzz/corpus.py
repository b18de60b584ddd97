#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""Seed corpora for the fuzzers, made from the shared test vectors and from files grove writes.

Usage: corpus.py VECTORS_DIR GROVE_BIN OUT_DIR
Writes OUT_DIR/<fuzzer>/<n> files; nothing here is committed (the corpora are rebuilt each run).
"""
import base64, json, os, subprocess, sys, tempfile

vec, grove, out = sys.argv[1], sys.argv[2], sys.argv[3]
counts = {}

def put(name, data):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    counts[name] = counts.get(name, 0) + 1
    open(os.path.join(d, "%d" % counts[name]), "wb").write(data)

def u16(n):
    return bytes([n >> 8 & 255, n & 255])

# SLH-DSA: the 24 descriptors in grove_slhdsa_params_at order (FIPS at even indices)
order = []
for s in ["128s", "128f", "192s", "192f", "256s", "256f"]:
    for fam in ["SHA2", "SHAKE"]:
        order.append("SLH-DSA-%s-%s" % (fam, s))
        order.append("sphincs-%s-%s-simple" % (fam.lower(), s))
try:
    d = json.load(open(os.path.join(vec, "slhdsa", "acvp-sigver-internal.json")))
    for g in d["testGroups"]:
        sel = order.index(g["parameterSet"])
        for t in g["tests"]:
            pk, msg, sig = (bytes.fromhex(t[k]) for k in ("pk", "message", "signature"))
            put("fuzz_slhdsa_verify", bytes([sel]) + pk + b"\0" + u16(len(msg)) + msg + sig)
    d = json.load(open(os.path.join(vec, "slhdsa", "generated-external.json")))
    for k in d["keys"]:
        sel = order.index(k["parameterSet"])
        pk = bytes.fromhex(k["pk"])
        for t in k["tests"]:
            msg, ctx, sig = (bytes.fromhex(t.get(x) or "") for x in ("message", "context", "signature"))
            put("fuzz_slhdsa_verify", bytes([sel]) + pk + bytes([len(ctx)]) + ctx + u16(len(msg)) + msg + sig)
except (OSError, ValueError, KeyError) as e:
    print("slhdsa vectors:", e)

# DGSP: manager sk, message, signature from the crate-made and grove-profile vectors
sets = ["shake-128f", "sha2-128f", "shake-192f", "sha2-192f", "shake-256f", "sha2-256f", "shake-128s", "sha2-128s"]
for sub in ("dgsp", "dgsp-grove"):
    p = os.path.join(vec, sub)
    if not os.path.isdir(p):
        continue
    for f in sorted(os.listdir(p)):
        if not f.endswith(".json"):
            continue
        d = json.load(open(os.path.join(p, f)))
        name = d["param_set"].replace("sphincs_", "").replace("_", "-")
        if name not in sets:
            continue
        sel = sets.index(name) | (8 if d["profile"] == "dgsp-rs-0.1" else 0)
        sk = bytes.fromhex(d["manager"]["sk"])
        for s in d["signatures"][:2]:
            msg, sig = bytes.fromhex(s["message"]), bytes.fromhex(s["signature"])
            put("fuzz_dgsp_verify", bytes([sel]) + sk + u16(len(msg)) + msg + sig)

# grove-made files of every type
with tempfile.TemporaryDirectory() as t:
    def run(*a):
        subprocess.run([grove, "dgsp"] + list(a), cwd=t, check=True, capture_output=True)
    run("manager", "init", "--group", "g", "--params", "sha2-128f")
    run("manager", "join", "--group", "g", "--username", "alice", "--out", "alice.cred")
    run("member", "init", "--wallet", "w", "--credential", "alice.cred")
    run("member", "csr", "--wallet", "w", "--count", "2", "--out", "c.csr")
    run("manager", "cert", "--group", "g", "--csr", "c.csr", "--out", "c.certs")
    run("member", "import-certs", "--wallet", "w", "--certs", "c.certs")
    open(os.path.join(t, "m"), "w").write("hello")
    run("member", "sign", "--wallet", "w", "--msg", "m", "--sig", "s")
    run("manager", "open", "--group", "g", "--msg", "m", "--sig", "s", "--proof-out", "p")
    run("manager", "revoke", "--group", "g", "--id", "0")
    run("manager", "export-revocations", "--group", "g", "--out", "rl")
    # the binary envelope too (--binary)
    run("export", "--pk", "g/manager.pub", "--format", "raw", "--out", "pk.raw")
    run("import", "--format", "raw", "--params", "sha2-128f", "--pk", "pk.raw", "--out", "pk.bin",
        "--binary")
    run("manager", "open", "--group", "g", "--msg", "m", "--sig", "s", "--proof-out", "p.bin",
        "--binary")
    files = ["g/manager.pub", "alice.cred", "c.csr", "c.certs", "s", "p", "rl"]
    for f in files + ["pk.bin", "p.bin"]:
        data = open(os.path.join(t, f), "rb").read()
        put("fuzz_dgsp_files", data)
        put("fuzz_envelope", data)
        if f in files:
            put("fuzz_armor", data)
    def body(f):
        """The body of an armored grove envelope (grove/envelope.h)."""
        lines = open(os.path.join(t, f)).read().split("\n")
        b = base64.b64decode("".join(lines[1:-2]))
        p = 6
        for _ in range(3):  # scheme, set, type
            p += 1 + b[p]
        p += 8  # key id
        n = int.from_bytes(b[p:p + 4], "big")
        return b[p + 4:p + 4 + n]
    pk = body("g/manager.pub")
    put("fuzz_dgsp_revocations", bytes([1]) + pk + body("rl"))
    put("fuzz_codecs", base64.b64encode(pk))
    put("fuzz_codecs", pk.hex().encode())

# XMSS: public keys and signatures (valid and negative) from the vectors
p = os.path.join(vec, "xmss")
for f in sorted(os.listdir(p)) if os.path.isdir(p) else []:
    if not f.endswith(".json"):
        continue
    try:
        d = json.load(open(os.path.join(p, f)))
        fam = 1 if d["family"] == "XMSSMT" else 0
        for s in d["signatures"][:2] + d["negative"][:4]:
            pk = bytes.fromhex(s.get("pk", d["pk"]))
            msg, sig = bytes.fromhex(s["msg"]), bytes.fromhex(s["sig"])
            put("fuzz_xmss_verify", bytes([fam]) + u16(len(pk)) + pk + u16(len(msg)) + msg + sig)
    except (OSError, ValueError, KeyError) as e:
        print("xmss vectors:", e)

def xmss_state(b):
    """The key state inside an XMSS key file (docs/xmss.md): armored or binary envelope, or bare."""
    if b.startswith(b"-----BEGIN "):
        b = base64.b64decode(b"".join(b.split(b"\n")[1:-2]))
    if b[:4] != b"GRVE":
        return b
    o = 6
    for _ in range(3):
        o += 1 + b[o]
    n = int.from_bytes(b[o + 8:o + 12], "big")
    return b[o + 12:o + 12 + n]


def put_xmss_key(k):
    """The key file as grove wrote it (the key-file reader) and the state inside (the loader)."""
    b = open(k, "rb").read()
    put("fuzz_xmss_state", b)
    put("fuzz_xmss_state", xmss_state(b))


# XMSS private-key files and states written by grove (small trees, so the fuzzer may load them);
# the first set's files armored, the second's binary
with tempfile.TemporaryDirectory() as t:
    for ps in ("XMSSMT-SHA2_20/4_256", "XMSSMT-SHAKE_20/4_256"):
        k = os.path.join(t, ps.replace("/", "-") + ".key")
        form = [] if ps.startswith("XMSSMT-SHA2") else ["--binary"]
        r = subprocess.run([grove, "xmss", "keygen", "--params", ps, "--sk", k, "--pk", k + ".pub",
                            "--no-registry", "--seed", "11" * 96] + form, capture_output=True)
        if r.returncode == 0:
            put_xmss_key(k)
        else:
            print("xmss keygen:", r.stderr.decode().strip())
            continue
        # the same key after signatures (index and cache moved on; across a subtree boundary),
        # and after a split (a shortened range)
        m = os.path.join(t, "m")
        open(m, "w").write("seed")
        for i in range(33):
            subprocess.run([grove, "xmss", "sign", "--sk", k, "--msg", m, "--sig", k + ".sig",
                            "--no-registry"], capture_output=True)
            if i in (0, 32):
                put_xmss_key(k)
        r = subprocess.run([grove, "xmss", "split", "--sk", k, "--out", k + ".part",
                            "--count", "1000", "--no-registry"], capture_output=True)
        if r.returncode == 0:
            put_xmss_key(k)
            put_xmss_key(k + ".part")

# CROSS: KAT entries (pk, then msg and the detached signature from sm = msg || sig)
p = os.path.join(vec, "cross")
try:
    names = sorted(f for f in os.listdir(p) if f.startswith("cross-") and f.endswith(".json")
                   and not f.endswith(".trace.json"))
except OSError:
    names = []
order = ["cross-rsdp-%d-%s" % (c, v) for c in (1, 3, 5) for v in ("fast", "balanced", "small")] + \
        ["cross-rsdpg-%d-%s" % (c, v) for c in (1, 3, 5) for v in ("fast", "balanced", "small")]
for f in names:
    try:
        d = json.load(open(os.path.join(p, f)))
        v = f[:-5]
        if v not in order:
            continue
        for e in d["entries"][:2]:
            pk, msg, sm = (bytes.fromhex(e[k]) for k in ("pk", "msg", "sm"))
            sig = sm[len(msg):]
            put("fuzz_cross_verify", bytes([order.index(v)]) + pk + u16(len(msg)) + msg + sig)
            # key files: the secret key (a seed) with its own public key, then a root seed
            # (lambda/8 bytes) and a salt (2 lambda/8) for deterministic signing, the message
            sk, lam = bytes.fromhex(e["sk"]), {1: 16, 3: 24, 5: 32}[d["nist_category"]]
            rnd = (bytes.fromhex(e["seed"]) * 2)[:3 * lam]
            put("fuzz_cross_keys", bytes([order.index(v)]) + sk + pk + rnd + msg)
    except (OSError, ValueError, KeyError) as e:
        print("cross vectors:", e)

# BLS12-381: Ethereum (min-pk) keys and signatures: G1 and G2 points and verify triples
try:
    d = json.load(open(os.path.join(vec, "bls12381", "ethereum_min_pk_subset.json")))
    for t in d["verify"][:12]:
        pk, msg, sig = (bytes.fromhex((t.get(k) or "0x")[2:]) for k in ("pubkey", "message", "signature"))
        if len(pk) == 48:
            put("fuzz_bls_points", bytes([0 | 4]) + pk)
        if len(sig) == 96:
            put("fuzz_bls_points", bytes([1]) + sig)
        if len(pk) == 48 and len(sig) == 96:
            put("fuzz_bls_points", bytes([3]) + pk + sig + msg)
except (OSError, ValueError, KeyError) as e:
    print("bls vectors:", e)

# Mithril STM: binary encodings (fuzz_stm_decode: selector 0 params, 1 avk, 2 sig, 3 aggregate,
# 4 closed registration) and their serde JSON shapes (fuzz_stm_json: 0 generic, 1 params, 2 sig,
# 3 avk, 4 aggregate)
def stm_json(o):
    return json.dumps(o, separators=(",", ":")).encode()

def stm_closed(reg):
    return b"GRVSTMR1" + len(reg).to_bytes(8, "big") + b"".join(
        bytes.fromhex(r["vk"]) + r["stake"].to_bytes(8, "big") for r in reg)

def stm_avk_json(root, n, total):
    return stm_json({"mt_commitment": {"root": list(root), "nr_leaves": n, "hasher": None},
                     "total_stake": total})

try:
    p = os.path.join(vec, "stm")
    d = json.load(open(os.path.join(p, "parameters.json")))
    put("fuzz_stm_decode", bytes([0]) + bytes.fromhex(d["legacy_bytes"]))
    put("fuzz_stm_json", bytes([1]) + stm_json(d["value"]))
    d = json.load(open(os.path.join(p, "single_signature_2party.json")))
    put("fuzz_stm_decode", bytes([2]) + bytes.fromhex(d["legacy_bytes"]))
    put("fuzz_stm_decode", bytes([4]) + stm_closed(d["registration"]))
    put("fuzz_stm_json", bytes([2]) + stm_json(d["json"]))
    put("fuzz_stm_json", bytes([0]) + json.dumps(d, indent=1).encode())
    d = json.load(open(os.path.join(p, "aggregate_2party.json")))
    avk = bytes.fromhex(d["avk"]["legacy_bytes"])
    put("fuzz_stm_decode", bytes([1]) + avk)
    put("fuzz_stm_decode", bytes([3]) + bytes.fromhex(d["legacy_bytes"]))
    for n in d["negative_cases"]:
        if "legacy_bytes" in n:
            put("fuzz_stm_decode", bytes([3]) + bytes.fromhex(n["legacy_bytes"]))
    put("fuzz_stm_json", bytes([3]) + stm_avk_json(avk[8:40], d["avk"]["nr_leaves"], d["avk"]["total_stake"]))
    put("fuzz_stm_json", bytes([4]) + stm_json(d["json"]))
    put("fuzz_stm_json", bytes([1]) + stm_json(d["params"]))
    d = json.load(open(os.path.join(p, "aggregate_5party.json")))
    avk = bytes.fromhex(d["avk_legacy_bytes"])
    put("fuzz_stm_decode", bytes([1]) + avk)
    put("fuzz_stm_decode", bytes([3]) + bytes.fromhex(d["aggregate_legacy_bytes"]))
    put("fuzz_stm_decode", bytes([4]) + stm_closed(d["registration_order"]))
    for s in d["single_signatures"]:
        put("fuzz_stm_decode", bytes([2]) + bytes.fromhex(s["legacy_bytes"]))
    put("fuzz_stm_json", bytes([3]) + stm_avk_json(avk[8:40], 5, d["total_stake"]))
    put("fuzz_stm_json", bytes([4]) + stm_json(d["aggregate_json"]))
    put("fuzz_stm_json", bytes([0]) + json.dumps(d["aggregate_json"], indent=2).encode())
except (OSError, ValueError, KeyError) as e:
    print("stm vectors:", e)

# mithril-stm 0.11.3's CBOR v1 (fuzz_stm_cbor: selector 0 params, 1 avk, 2 sig, 3 aggregate,
# 4 initializer), with every negative case of the files
try:
    p = os.path.join(vec, "stm-cbor")
    for name in sorted(os.listdir(p)):
        if not name.endswith(".json"):
            continue
        d = json.load(open(os.path.join(p, name)))
        sel = {"params": 0, "avk": 1, "aggregate": 3}
        for key, s in sel.items():
            put("fuzz_stm_cbor", bytes([s]) + bytes.fromhex(d[key]["cbor_hex"]))
            for n in d[key].get("negative_cases", []):
                if "bytes_hex" in n:
                    put("fuzz_stm_cbor", bytes([s]) + bytes.fromhex(n["bytes_hex"]))
        for n in (d.get("single_signature_negative_cases") or {}).get("cases", []):
            if "bytes_hex" in n:
                put("fuzz_stm_cbor", bytes([2]) + bytes.fromhex(n["bytes_hex"]))
        for sg in d["single_signatures"]:
            if sg.get("cbor_hex"):
                put("fuzz_stm_cbor", bytes([2]) + bytes.fromhex(sg["cbor_hex"]))
        for pt in d["parties"]:
            put("fuzz_stm_cbor", bytes([4]) + bytes.fromhex(pt["initializer_cbor_hex"]))
except (OSError, ValueError, KeyError) as e:
    print("stm-cbor vectors:", e)

# Mithril certificates (fuzz_mithril: even selector = a file of certificates, odd = one): the
# devnet chain, a few certificates of it, one alone
try:
    d = json.load(open(os.path.join(vec, "mithril-chain", "certificates.json")))
    certs = list(d.values())
    put("fuzz_mithril", bytes([0]) + json.dumps(d).encode())
    put("fuzz_mithril", bytes([2]) + json.dumps(certs[:4]).encode())
    for c in certs[:3] + [c for c in certs if c["genesis_signature"]]:
        put("fuzz_mithril", bytes([1]) + json.dumps(c).encode())
except (OSError, ValueError, KeyError) as e:
    print("mithril-chain vectors:", e)

for k in sorted(counts):
    print("%-24s %d seeds" % (k, counts[k]))

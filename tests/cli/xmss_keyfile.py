# SPDX-License-Identifier: MIT OR Apache-2.0
"""The XMSS private-key file as docs/formats.md and docs/xmss.md describe it, written here from
the documents (not from grove's code), for tests/cli/xmss.sh:

  form FILE                      armored | binary | bare
  state FILE OUT                 the key state inside FILE (the bare file of an older grove)
  seal FILE STATE OUT [SET]      a binary envelope with FILE's header (SET: another set name)
                                 around STATE, its check recomputed
  swap64 FILE OUT                an armored FILE with one base64 character in the middle of
                                 its text replaced by another valid one
  flip FILE OUT OFFSET           FILE with the byte at OFFSET of its state flipped (all ones),
                                 in FILE's form, the envelope's check left as it was
"""
import base64
import hashlib
import sys

CHECK_LABEL = b"grove envelope v1"


def split_armor(b):
    lines = b.decode("ascii").split("\n")
    assert lines[0].startswith("-----BEGIN GROVE XMSS SECRET KEY-----") and lines[-1] == ""
    return lines[0], lines[1:-2], lines[-2]


def binary_of(b):
    """(form, binary envelope or None)"""
    if b.startswith(b"-----BEGIN "):
        _, body, _ = split_armor(b)
        return "armored", base64.b64decode("".join(body))
    if b[:4] == b"GRVE":
        return "binary", b
    return "bare", None


def parse(env):
    """(header up to and including the body length, body, check)"""
    o = 6
    for _ in range(3):
        o += 1 + env[o]
    o += 8 + 4
    n = int.from_bytes(env[o - 4:o], "big")
    return env[:o], env[o:o + n], env[o + n:]


def armor(env):
    t = "GROVE XMSS SECRET KEY"
    s = base64.b64encode(env).decode()
    lines = [s[i:i + 64] for i in range(0, len(s), 64)]
    return ("-----BEGIN %s-----\n%s\n-----END %s-----\n" % (t, "\n".join(lines), t)).encode()


def main(a):
    b = open(a[1], "rb").read()
    form, env = binary_of(b)
    if a[0] == "form":
        print(form)
    elif a[0] == "state":
        open(a[2], "wb").write(b if env is None else parse(env)[1])
    elif a[0] == "seal":
        hdr, _, _ = parse(env)
        state = open(a[2], "rb").read()
        if len(a) > 4:  # another set name: rebuild the header
            o = 6 + 1 + hdr[6]
            n = hdr[o]
            hdr = hdr[:o] + bytes([len(a[4])]) + a[4].encode() + hdr[o + 1 + n:]
        x = hdr[:-4] + len(state).to_bytes(4, "big") + state
        open(a[3], "wb").write(x + hashlib.sha256(CHECK_LABEL + x).digest())
    elif a[0] == "swap64":
        first, body, last = split_armor(b)
        i = len(body) // 2
        line = body[i]
        c = "B" if line[10] != "B" else "C"
        body[i] = line[:10] + c + line[11:]
        open(a[2], "wb").write(("\n".join([first] + body + [last]) + "\n").encode())
    elif a[0] == "flip":
        off = int(a[3])
        if env is None:
            x = bytearray(b)
            x[off] ^= 0xFF
            open(a[2], "wb").write(bytes(x))
            return
        hdr, body, check = parse(env)
        x = bytearray(body)
        x[off] ^= 0xFF
        out = hdr + bytes(x) + check
        open(a[2], "wb").write(out if form == "binary" else armor(out))
    else:
        sys.exit("unknown command " + a[0])


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT OR Apache-2.0
"""grove files for the DGSP test scripts, written from the documented layouts (grove/envelope.h,
"grove's DGSP files" in grove/dgsp.h): read the envelope (armored or binary) or the older DGSP
armor, and write an envelope with a changed body (length and check recomputed), so that tests can
make well-formed files whose contents are wrong.

  grove_file.py body FILE              the body, raw, on stdout
  grove_file.py set FILE               the set ("sha2-128f/r3.1/grove")
  grove_file.py keyid FILE             the key id in hex ("" if none)
  grove_file.py n FILE                 the DGSP security parameter N of the file's set
  grove_file.py rewrap FILE BODY OUT   FILE with the body of the file BODY, as a valid envelope
  grove_file.py flipbody FILE OUT AT   FILE with body byte AT (negative: from the end) changed
  grove_file.py damage FILE OUT AT     the same, but the check is left as it was (a damaged file)
  grove_file.py reset FILE SET OUT     FILE with another set, as a valid envelope
  grove_file.py retype FILE TYPE OUT   FILE with another type, as a valid envelope
  grove_file.py old FILE VERSION OUT   FILE in DGSP's older armor (a SECRET KEY: v1 without its
                                       check, v2 with it)
From Python: sys.path.insert(0, <this folder>); import grove_file; grove_file.read(path).
"""
import base64, hashlib, sys

MAGIC = b"GRVE"


def _armor_parts(text):
    lines = text.decode().replace("\r", "").strip("\n").split("\n")
    assert lines[0].startswith("-----BEGIN ") and lines[-1].startswith("-----END ")
    title = lines[0][len("-----BEGIN "):-5]
    return title, base64.b64decode("".join(lines[1:-1]))


def parse(data):
    """A dict: scheme, set, type, key_id (bytes or None), body, form ('armored', 'binary',
    'dgsp-armor')."""
    form = "binary"
    if data.startswith(b"-----BEGIN "):
        title, data = _armor_parts(data)
        form = "armored"
        words = title.split()
        if len(words) > 3 and words[0:2] == ["GROVE", "DGSP"] and not data.startswith(MAGIC):
            # older DGSP armor: GROVE DGSP <TYPE words> v<N> <params> <flavour> <profile>
            v = next(i for i, w in enumerate(words) if w[0] == "v" and w[1:].isdigit())
            return {"scheme": "DGSP", "type": " ".join(words[2:v]),
                    "set": "/".join(words[v + 1:]), "key_id": None, "body": data,
                    "form": "dgsp-armor", "version": int(words[v][1:])}
    assert data[:4] == MAGIC, "not a grove file"
    flags, p, names = data[5], 6, []
    for _ in range(3):
        n = data[p]
        names.append(data[p + 1:p + 1 + n].decode())
        p += 1 + n
    key_id = data[p:p + 8] if flags & 1 else None
    n = int.from_bytes(data[p + 8:p + 12], "big")
    body = data[p + 12:p + 12 + n]
    return {"scheme": names[0], "set": names[1], "type": names[2], "key_id": key_id,
            "body": body, "form": form, "version": data[4]}


def read(path):
    return parse(open(path, "rb").read())


def encode(f, armored=True, check=None):
    """The envelope of f (a dict as parse returns) with a fresh length and check (or the
    given check bytes)."""
    out = bytearray(MAGIC + bytes([1, 1 if f["key_id"] else 0]))
    for name in (f["scheme"], f["set"], f["type"]):
        out += bytes([len(name)]) + name.encode()
    out += f["key_id"] or bytes(8)
    out += len(f["body"]).to_bytes(4, "big") + f["body"]
    out += check or hashlib.sha256(b"grove envelope v1" + bytes(out)).digest()
    if not armored:
        return bytes(out)
    title = "GROVE %s %s" % (f["scheme"], f["type"])
    b = base64.b64encode(bytes(out)).decode()
    lines = [b[i:i + 64] for i in range(0, len(b), 64)]
    return ("-----BEGIN %s-----\n%s\n-----END %s-----\n" % (title, "\n".join(lines), title)).encode()


def write(path, f, armored=None):
    if armored is None:
        armored = f["form"] != "binary"
    open(path, "wb").write(encode(f, armored))


def encode_old(f, version):
    """f in the armor grove wrote before the envelope (include/grove/dgsp.h, "Older files")."""
    title = "GROVE DGSP %s v%d %s" % (f["type"], version, f["set"].replace("/", " "))
    body = f["body"]
    if f["type"] == "SECRET KEY" and version == 2:
        body += hashlib.sha256(b"grove-dgsp-manager-sk-v2\0" + title.encode() + b"\0" +
                               body).digest()
    b = base64.b64encode(body).decode()
    lines = "\n".join(b[i:i + 64] for i in range(0, len(b), 64))
    return ("-----BEGIN %s-----\n%s\n-----END GROVE DGSP %s-----\n" % (title, lines, f["type"])).encode()


def n_of(f):
    return {"128": 16, "192": 24, "256": 32}[f["set"].split("/")[0].split("-")[1][:3]]


def main(argv):
    cmd, path = argv[1], argv[2]
    f = read(path)
    if cmd == "body":
        sys.stdout.buffer.write(f["body"])
    elif cmd == "set":
        print(f["set"])
    elif cmd == "keyid":
        print(f["key_id"].hex() if f["key_id"] else "")
    elif cmd == "n":
        print(n_of(f))
    elif cmd == "rewrap":
        f["body"] = open(argv[3], "rb").read()
        write(argv[4], f)
    elif cmd in ("flipbody", "damage"):
        old = encode(f, False)
        b = bytearray(f["body"])
        b[int(argv[4])] ^= 1
        f["body"] = bytes(b)
        keep = old[-32:] if cmd == "damage" else None
        open(argv[3], "wb").write(encode(f, f["form"] != "binary", keep))
    elif cmd == "reset":
        f["set"] = argv[3]
        write(argv[4], f)
    elif cmd == "old":
        open(argv[4], "wb").write(encode_old(f, int(argv[3])))
    elif cmd == "retype":
        f["type"] = argv[3]
        write(argv[4], f)
    else:
        raise SystemExit("unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)

# SPDX-License-Identifier: MIT OR Apache-2.0
"""grove files (the envelope of grove/envelope.h: what ``grove`` writes and ``grove info``
describes) and the standard encodings of grove/pkix.h (RFC 9909 SLH-DSA SubjectPublicKeyInfo
and PKCS#8, RFC 9802 XMSS SubjectPublicKeyInfo, PEM)."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Optional, Tuple

from ._lib import (BytesLike, SecretBuffer, as_bytes, c_size, c_status, c_u8p, check, cstr,
                   errbuf_text, fn, inbuf, outbuf, secret_in)

BINARY = 0
ARMORED = 1
_FORMS = {0: "binary", 1: "armored", 2: "dgsp-armor", 3: "xmss-key-file"}


class _Env(ctypes.Structure):
    _fields_ = [("scheme", ctypes.c_char * 17), ("set", ctypes.c_char * 49),
                ("type", ctypes.c_char * 33), ("has_key_id", ctypes.c_bool),
                ("key_id", ctypes.c_uint8 * 8), ("version", ctypes.c_uint),
                ("form", ctypes.c_int), ("body", c_u8p), ("body_len", c_size)]


_init = fn("grove_envelope_init", c_status, ctypes.POINTER(_Env), ctypes.c_char_p,
           ctypes.c_char_p, ctypes.c_char_p, c_u8p, c_size)
_key_id = fn("grove_envelope_key_id", c_status, c_u8p, ctypes.c_char_p, ctypes.c_char_p, c_u8p,
             c_size)
_encoded_bytes = fn("grove_envelope_encoded_bytes", c_size, ctypes.POINTER(_Env), ctypes.c_int)
_encode = fn("grove_envelope_encode", c_status, c_u8p, c_size, ctypes.POINTER(c_size),
             ctypes.POINTER(_Env), ctypes.c_int)
_decode = fn("grove_envelope_decode", c_status, ctypes.POINTER(_Env), c_u8p, c_size, c_u8p,
             c_size, ctypes.c_char_p, c_size)
_detect = fn("grove_envelope_detect", ctypes.c_bool, c_u8p, c_size)


@dataclass(frozen=True)
class Envelope:
    """A decoded grove file: what it is (scheme, set, type), whose key it belongs to (key_id,
    8 bytes or None), its form ("armored", "binary", ...) and its body (the raw object)."""
    scheme: str
    set: str
    type: str
    key_id: Optional[bytes]
    form: str
    version: int
    body: bytes


def key_id(scheme: str, set: str, public_key: BytesLike) -> bytes:
    """The 8-byte key id of a public key (the id every file made with the key carries)."""
    pk = as_bytes(public_key, "public key")
    out = outbuf(8)
    check(_key_id(out, cstr(scheme, "scheme"), cstr(set, "set"), inbuf(pk), len(pk)))
    return bytes(out)


def encode(scheme: str, set: str, type: str, body: BytesLike, *,
           public_key: Optional[BytesLike] = None, armored: bool = True) -> bytes:
    """A grove file of ``body`` (armored text by default), carrying the key id of
    ``public_key`` when given. The scheme's own commands read it (``grove info`` describes it).
    For a secret body, wipe the result if you hold it in a bytearray."""
    secret = type == "SECRET KEY"
    b: Any = secret_in(body, "body") if secret else as_bytes(body, "body")
    try:
        env = _Env()
        ptr = b.ptr if secret else inbuf(b)
        n = b.size if secret else len(b)
        check(_init(ctypes.byref(env), cstr(scheme, "scheme"), cstr(set, "set"),
                    cstr(type, "type"), ptr, n))
        if public_key is not None:
            env.key_id[:] = key_id(scheme, set, public_key)
            env.has_key_id = True
        form = ARMORED if armored else BINARY
        cap = _encoded_bytes(ctypes.byref(env), form)
        out = SecretBuffer(cap) if secret else None
        buf = out.ptr if out is not None else outbuf(cap)
        ln = c_size(0)
        try:
            check(_encode(buf, cap, ctypes.byref(ln), ctypes.byref(env), form))
            return ctypes.string_at(buf, ln.value)
        finally:
            if out is not None:
                out.wipe()
    finally:
        if secret:
            b.wipe()


def decode(data: BytesLike, *, scheme: Optional[str] = None,
           type: Optional[str] = None) -> Envelope:
    """Decode a grove file (either form): its integrity check, names and key id are checked
    (grove.EncodingError with the library's sentence otherwise); ``scheme`` / ``type``, when
    given, must match."""
    b = as_bytes(data, "data")
    env = _Env()
    secret = SecretBuffer(len(b))
    err = ctypes.create_string_buffer(256)
    try:
        check(_decode(ctypes.byref(env), secret.ptr, len(b), inbuf(b), len(b), err, 256),
              errbuf_text(err))
        e = Envelope(scheme=env.scheme.decode(), set=env.set.decode(), type=env.type.decode(),
                     key_id=bytes(env.key_id) if env.has_key_id else None,
                     form=_FORMS.get(env.form, str(env.form)), version=env.version,
                     body=ctypes.string_at(env.body, env.body_len))
    finally:
        secret.wipe()
    if scheme is not None and e.scheme != scheme or type is not None and e.type != type:
        from ._lib import EncodingError
        raise EncodingError(-3, "this is a grove %s %s (%s), a %s %s was expected"
                            % (e.scheme, e.type, e.set, scheme or "", type or "file"))
    return e


def is_grove_file(data: BytesLike) -> bool:
    """True if ``data`` starts like a grove file (nothing is checked)."""
    b = as_bytes(data, "data")
    return bool(_detect(inbuf(b), len(b)))


# ---- standard encodings (grove/pkix.h) -----------------------------------------------------------

_slh_get = fn("grove_slhdsa_params_get", ctypes.c_void_p, ctypes.c_char_p)
_slh_name = fn("grove_slhdsa_params_name", ctypes.c_char_p, ctypes.c_void_p)
_slh_pk_bytes = fn("grove_slhdsa_pk_bytes", c_size, ctypes.c_void_p)
_slh_sk_bytes = fn("grove_slhdsa_sk_bytes", c_size, ctypes.c_void_p)
_ph_get = fn("grove_slhdsa_prehash_get", ctypes.c_int, ctypes.c_char_p)
_pk_to_der = fn("grove_pkix_slhdsa_pk_to_der", c_status, ctypes.c_void_p, ctypes.c_int, c_u8p,
                c_size, ctypes.POINTER(c_size), c_u8p)
_sk_to_der = fn("grove_pkix_slhdsa_sk_to_der", c_status, ctypes.c_void_p, ctypes.c_int, c_u8p,
                c_size, ctypes.POINTER(c_size), c_u8p)
_pk_from_der = fn("grove_pkix_slhdsa_pk_from_der", c_status, ctypes.POINTER(ctypes.c_void_p),
                  ctypes.POINTER(ctypes.c_int), c_u8p, c_size, ctypes.POINTER(c_size), c_u8p,
                  c_size)
_sk_from_der = fn("grove_pkix_slhdsa_sk_from_der", c_status, ctypes.POINTER(ctypes.c_void_p),
                  ctypes.POINTER(ctypes.c_int), c_u8p, c_size, ctypes.POINTER(c_size), c_u8p,
                  c_size)
_xmss_to_der = fn("grove_pkix_xmss_pk_to_der", c_status, ctypes.c_int, c_u8p, c_size,
                  ctypes.POINTER(c_size), c_u8p, c_size)
_xmss_from_der = fn("grove_pkix_xmss_pk_from_der", c_status, ctypes.POINTER(ctypes.c_int), c_u8p,
                    c_size, ctypes.POINTER(c_size), c_u8p, c_size)
_pem_encode = fn("grove_pkix_pem_encode", c_status, ctypes.c_char_p, c_size,
                 ctypes.POINTER(c_size), ctypes.c_char_p, c_u8p, c_size)
_pem_decode = fn("grove_pkix_pem_decode", c_status, c_u8p, c_size, ctypes.POINTER(c_size),
                 ctypes.c_char_p, ctypes.c_char_p, c_size)

_PH_NAMES = {0: None, 1: "SHA2-224", 2: "SHA2-256", 3: "SHA2-384", 4: "SHA2-512",
             5: "SHA3-256", 6: "SHA3-512", 7: "SHAKE128", 8: "SHAKE256"}


def _slh(name: str) -> Any:
    p = _slh_get(cstr(name, "set"))
    if not p:
        raise ValueError("unknown SLH-DSA set %r" % name)
    return p


def _ph(prehash: Optional[str]) -> int:
    if prehash is None:
        return 0
    v = _ph_get(cstr(prehash, "prehash"))
    if not v:
        raise ValueError("unknown pre-hash %r" % prehash)
    return int(v)


def slhdsa_public_key_to_der(name: str, public_key: BytesLike,
                             prehash: Optional[str] = None) -> bytes:
    """An SLH-DSA public key as an RFC 9909 SubjectPublicKeyInfo (DER)."""
    p = _slh(name)
    pk = as_bytes(public_key, "public key")
    if len(pk) != _slh_pk_bytes(p):
        raise ValueError("a %s public key is %d bytes" % (name, _slh_pk_bytes(p)))
    out = outbuf(128)
    n = c_size(0)
    check(_pk_to_der(p, _ph(prehash), out, 128, ctypes.byref(n), inbuf(pk)))
    return bytes(out)[: n.value]


def slhdsa_secret_key_to_der(name: str, secret_key: BytesLike,
                             prehash: Optional[str] = None) -> bytes:
    """An SLH-DSA secret key as RFC 9909 PKCS#8 (DER)."""
    p = _slh(name)
    sk = secret_in(secret_key, "secret key", _slh_sk_bytes(p))
    out = SecretBuffer(256)
    n = c_size(0)
    try:
        check(_sk_to_der(p, _ph(prehash), out.ptr, 256, ctypes.byref(n), sk.ptr))
        return out.bytes()[: n.value]
    finally:
        sk.wipe()
        out.wipe()


def slhdsa_public_key_from_der(der: BytesLike) -> Tuple[str, Optional[str], bytes]:
    """Decode an SLH-DSA SubjectPublicKeyInfo: ``(set name, pre-hash or None, public key)``."""
    d = as_bytes(der, "der")
    p = ctypes.c_void_p()
    ph = ctypes.c_int(0)
    out = outbuf(64)
    n = c_size(0)
    check(_pk_from_der(ctypes.byref(p), ctypes.byref(ph), out, 64, ctypes.byref(n), inbuf(d),
                       len(d)))
    return _slh_name(p).decode(), _PH_NAMES.get(ph.value), bytes(out)[: n.value]


def slhdsa_secret_key_from_der(der: BytesLike) -> Tuple[str, Optional[str], bytes]:
    """Decode an SLH-DSA PKCS#8 private key: ``(set name, pre-hash or None, secret key)``."""
    d = as_bytes(der, "der")
    p = ctypes.c_void_p()
    ph = ctypes.c_int(0)
    out = SecretBuffer(128)
    n = c_size(0)
    try:
        check(_sk_from_der(ctypes.byref(p), ctypes.byref(ph), out.ptr, 128, ctypes.byref(n),
                           inbuf(d), len(d)))
        return _slh_name(p).decode(), _PH_NAMES.get(ph.value), out.bytes()[: n.value]
    finally:
        out.wipe()


def xmss_public_key_to_der(public_key: BytesLike, mt: bool = False) -> bytes:
    """An XMSS (or, with ``mt=True``, XMSS^MT) public key as an RFC 9802 SubjectPublicKeyInfo."""
    pk = as_bytes(public_key, "public key")
    out = outbuf(256)
    n = c_size(0)
    check(_xmss_to_der(1 if mt else 0, out, 256, ctypes.byref(n), inbuf(pk), len(pk)))
    return bytes(out)[: n.value]


def xmss_public_key_from_der(der: BytesLike) -> Tuple[bool, bytes]:
    """Decode an RFC 9802 SubjectPublicKeyInfo: ``(is XMSS^MT, public key)``."""
    d = as_bytes(der, "der")
    fam = ctypes.c_int(0)
    out = outbuf(256)
    n = c_size(0)
    check(_xmss_from_der(ctypes.byref(fam), out, 256, ctypes.byref(n), inbuf(d), len(d)))
    return fam.value == 1, bytes(out)[: n.value]


def pem_encode(label: str, der: BytesLike) -> str:
    """DER bytes as PEM text with the given label ("PUBLIC KEY", "PRIVATE KEY")."""
    d = as_bytes(der, "der")
    cap = 4 * len(d) // 3 + len(d) // 48 + 200
    out = ctypes.create_string_buffer(cap)
    n = c_size(0)
    check(_pem_encode(out, cap, ctypes.byref(n), cstr(label, "label"), inbuf(d), len(d)))
    text = out.raw[: n.value].decode("ascii")
    if label == "PRIVATE KEY":
        ctypes.memset(out, 0, cap)
    return text


def pem_decode(label: str, pem: str) -> bytes:
    """The DER bytes of PEM text with the given label (grove.EncodingError otherwise)."""
    t = cstr(pem, "pem")
    out = outbuf(len(t))
    n = c_size(0)
    check(_pem_decode(out, len(t), ctypes.byref(n), cstr(label, "label"), t, len(t)))
    return bytes(out)[: n.value]

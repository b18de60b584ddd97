# SPDX-License-Identifier: MIT OR Apache-2.0
"""Hashes from libgrove (grove/hash.h): SHA-2, SHA-3 and SHAKE, one-shot or incremental."""
from __future__ import annotations

import ctypes
from typing import List, Optional

from ._lib import BytesLike, as_bytes, c_size, c_status, c_u8p, check, fn, inbuf, outbuf

_init = fn("grove_hash_init", c_status, ctypes.c_void_p, ctypes.c_int)
_update = fn("grove_hash_update", None, ctypes.c_void_p, c_u8p, c_size)
_final = fn("grove_hash_final", c_status, ctypes.c_void_p, c_u8p, c_size)
_digest_bytes = fn("grove_hash_digest_bytes", c_size, ctypes.c_int)
_alg_name = fn("grove_hash_alg_name", ctypes.c_char_p, ctypes.c_int)
_from_name = fn("grove_hash_alg_from_name", c_status, ctypes.c_char_p,
                ctypes.POINTER(ctypes.c_int))

_SHAKE = (7, 8)


class _Ctx(ctypes.Structure):
    _fields_ = [("opaque", ctypes.c_uint64 * 32)]


def algorithms() -> List[str]:
    """The hash names: sha224, sha256, sha384, sha512, sha3-256, sha3-512, shake128, shake256."""
    return [_alg_name(i).decode() for i in range(1, 9)]


class Hash:
    """An incremental hash: ``Hash("sha256")``, ``update(data)``, ``digest()`` (or
    ``digest(length)`` for SHAKE: 32 bytes for shake128 and 64 for shake256 by default). Names as
    ``grove hash`` takes them (aliases such as ``SHA-256`` too)."""

    def __init__(self, name: str, data: Optional[BytesLike] = None) -> None:
        if not isinstance(name, str):
            raise TypeError("hash name must be str")
        alg = ctypes.c_int(0)
        if "\0" in name or _from_name(name.encode(), ctypes.byref(alg)) != 0:
            raise ValueError("unknown hash %r (one of %s)" % (name, ", ".join(algorithms())))
        self._alg = alg.value
        self.name: str = _alg_name(self._alg).decode()
        self.digest_size: int = _digest_bytes(self._alg) or (32 if self._alg == 7 else 64)
        self._ctx: Optional[_Ctx] = _Ctx()
        check(_init(ctypes.byref(self._ctx), self._alg))
        if data is not None:
            self.update(data)

    def update(self, data: BytesLike) -> "Hash":
        if self._ctx is None:
            raise ValueError("digest() was already called on this hash")
        b = as_bytes(data, "data")
        _update(ctypes.byref(self._ctx), inbuf(b), len(b))
        return self

    def digest(self, length: Optional[int] = None) -> bytes:
        """The digest (the object cannot be updated afterwards)."""
        if self._ctx is None:
            raise ValueError("digest() was already called on this hash")
        n = self.digest_size if length is None else length
        if length is not None and self._alg not in _SHAKE and length != self.digest_size:
            raise ValueError("%s has a fixed %d-byte digest" % (self.name, self.digest_size))
        if not isinstance(n, int) or n < 0 or n > (1 << 30):
            raise ValueError("length out of range")
        out = outbuf(n)
        check(_final(ctypes.byref(self._ctx), out, n))
        self._ctx = None
        return bytes(out)[:n]

    def hexdigest(self, length: Optional[int] = None) -> str:
        return self.digest(length).hex()


def digest(name: str, data: BytesLike, length: Optional[int] = None) -> bytes:
    """One-shot: ``grove.hash.digest("sha3-256", b"abc")``."""
    return Hash(name, data).digest(length)

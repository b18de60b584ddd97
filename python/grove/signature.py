# SPDX-License-Identifier: MIT OR Apache-2.0
"""Stateless signatures by name: SLH-DSA (FIPS 205), SPHINCS+ round 3.1, CROSS and BLS12-381,
through libgrove's generic API (grove/sig.h) and, for SLH-DSA contexts and pre-hash and for
CROSS strategies, the scheme headers (grove/slhdsa.h, grove/cross.h)."""
from __future__ import annotations

import ctypes
from typing import Any, List, Optional, Tuple

from ._lib import (BytesLike, SecretBuffer, as_bytes, c_size, c_status, c_u8p, check, fn, inbuf,
                   outbuf, secret_in)

_vp = ctypes.c_void_p
_alg_count = fn("grove_sig_alg_count", c_size)
_alg_at = fn("grove_sig_alg_at", _vp, c_size)
_alg_get = fn("grove_sig_alg_get", _vp, ctypes.c_char_p)
_alg_name = fn("grove_sig_alg_name", ctypes.c_char_p, _vp)
_pk_bytes = fn("grove_sig_pk_bytes", c_size, _vp)
_sk_bytes = fn("grove_sig_sk_bytes", c_size, _vp)
_sig_bytes = fn("grove_sig_sig_bytes", c_size, _vp)
_keygen = fn("grove_sig_keygen", c_status, _vp, c_u8p, c_u8p)
_sign = fn("grove_sig_sign", c_status, _vp, c_u8p, c_size, ctypes.POINTER(c_size), c_u8p, c_size,
           c_u8p)
_verify = fn("grove_sig_verify", c_status, _vp, c_u8p, c_size, c_u8p, c_size, c_u8p)

_slh_get = fn("grove_slhdsa_params_get", _vp, ctypes.c_char_p)
_slh_is_fips = fn("grove_slhdsa_params_is_fips205", ctypes.c_bool, _vp)
_slh_sig_bytes = fn("grove_slhdsa_sig_bytes", c_size, _vp)
_slh_prehash_get = fn("grove_slhdsa_prehash_get", ctypes.c_int, ctypes.c_char_p)
_slh_sign = fn("grove_slhdsa_sign", c_status, _vp, c_u8p, c_u8p, c_size, c_u8p, c_size, c_u8p,
               ctypes.c_bool)
_slh_verify = fn("grove_slhdsa_verify", c_status, _vp, c_u8p, c_size, c_u8p, c_size, c_u8p,
                 c_size, c_u8p)
_hslh_sign = fn("grove_hashslhdsa_sign", c_status, _vp, c_u8p, c_u8p, c_size, c_u8p, c_size,
                ctypes.c_int, c_u8p, ctypes.c_bool)
_hslh_verify = fn("grove_hashslhdsa_verify", c_status, _vp, c_u8p, c_size, c_u8p, c_size, c_u8p,
                  c_size, ctypes.c_int, c_u8p)

_cross_get = fn("grove_cross_params_get", _vp, ctypes.c_char_p)
_cross_sig_bytes = fn("grove_cross_sig_bytes", c_size, _vp)
_cross_strategy_get = fn("grove_cross_strategy_get", c_status, ctypes.POINTER(ctypes.c_int),
                         ctypes.c_char_p)
_cross_sign = fn("grove_cross_sign", c_status, _vp, ctypes.c_int, c_u8p, c_u8p, c_size, c_u8p)
_cross_verify = fn("grove_cross_verify", c_status, _vp, ctypes.c_int, c_u8p, c_size, c_u8p,
                   c_size, c_u8p)

VERIFY = -4


class Signature:
    """A stateless signature algorithm chosen by name, as ``grove <scheme> params`` prints it::

        s = grove.Signature("SLH-DSA-SHAKE-128f")
        pk, sk = s.keygen()
        sig = s.sign(sk, b"message")
        assert s.verify(pk, b"message", sig)

    Options that belong to one scheme:

    * ``context`` (bytes, at most 255) and ``prehash`` (``"SHA2-256"``, ``"SHAKE128"``, ...:
      HashSLH-DSA) for the SLH-DSA (FIPS 205) sets;
    * ``strategy`` (``"fast"`` or ``"small-memory"``) for the CROSS sets (both give the same
      signatures; small-memory uses less stack).

    Secret keys are returned as ``bytes``; pass a ``bytearray`` to :meth:`sign` and wipe it with
    :func:`grove.wipe` when you are done if you need the key gone from memory. The package's own
    copies live in ctypes buffers wiped with the library's ``grove_wipe``.
    """

    def __init__(self, name: str, *, context: Optional[BytesLike] = None,
                 prehash: Optional[str] = None, strategy: Optional[str] = None) -> None:
        if not isinstance(name, str):
            raise TypeError("algorithm name must be str, not " + type(name).__name__)
        self._alg = _alg_get(name.encode()) if "\0" not in name else None
        if not self._alg:
            raise ValueError("unknown signature algorithm %r (grove.Signature.algorithms() "
                             "lists them)" % name)
        self.name: str = _alg_name(self._alg).decode()
        self.public_key_size: int = _pk_bytes(self._alg)
        self.secret_key_size: int = _sk_bytes(self._alg)
        self.signature_size: int = _sig_bytes(self._alg)
        self._slh: Any = None
        self._ctx: bytes = b""
        self._ph = 0
        self._cross: Any = None
        self._strategy = 0
        if context is not None or prehash is not None:
            p = _slh_get(self.name.encode())
            if not p or not _slh_is_fips(p):
                raise ValueError("context and prehash are SLH-DSA (FIPS 205) options; %s is not "
                                 "an SLH-DSA set" % self.name)
            self._slh = p
            self._ctx = as_bytes(context, "context") if context is not None else b""
            if len(self._ctx) > 255:
                raise ValueError("an SLH-DSA context is at most 255 bytes, got %d"
                                 % len(self._ctx))
            if prehash is not None:
                if not isinstance(prehash, str):
                    raise TypeError("prehash must be str")
                self._ph = _slh_prehash_get(prehash.encode())
                if self._ph == 0:
                    raise ValueError("unknown pre-hash %r (SHA2-224, SHA2-256, SHA2-384, "
                                     "SHA2-512, SHA3-256, SHA3-512, SHAKE128, SHAKE256)"
                                     % prehash)
        if strategy is not None:
            p = _cross_get(self.name.encode())
            if not p:
                raise ValueError("strategy is a CROSS option; %s is not a CROSS set" % self.name)
            if not isinstance(strategy, str):
                raise TypeError("strategy must be str")
            s = ctypes.c_int(0)
            if _cross_strategy_get(ctypes.byref(s), strategy.encode()) != 0:
                raise ValueError("unknown CROSS strategy %r (fast, small-memory)" % strategy)
            self._cross = p
            self._strategy = s.value
        self.context: bytes = self._ctx
        self.prehash: Optional[str] = prehash
        self.strategy: Optional[str] = strategy

    def __repr__(self) -> str:
        return "grove.Signature(%r)" % self.name

    @staticmethod
    def algorithms() -> List[str]:
        """Every algorithm name, in the library's order."""
        return [_alg_name(_alg_at(i)).decode() for i in range(_alg_count())]

    def keygen(self) -> Tuple[bytes, bytes]:
        """A fresh key pair from the system's randomness: ``(public_key, secret_key)``."""
        pk = outbuf(self.public_key_size)
        sk = SecretBuffer(self.secret_key_size)
        try:
            check(_keygen(self._alg, pk, sk.ptr))
            return bytes(pk)[: self.public_key_size], sk.bytes()
        finally:
            sk.wipe()

    def _pk(self, pk: Any) -> bytes:
        b = as_bytes(pk, "public key")
        if len(b) != self.public_key_size:
            raise ValueError("a %s public key is %d bytes, got %d"
                             % (self.name, self.public_key_size, len(b)))
        return b

    def sign(self, secret_key: BytesLike, message: BytesLike) -> bytes:
        """The signature of ``message`` under ``secret_key`` (hedged, with the object's options)."""
        msg = as_bytes(message, "message")
        sk = secret_in(secret_key, "secret key")
        try:
            if sk.size != self.secret_key_size:
                raise ValueError("a %s secret key is %d bytes, got %d"
                                 % (self.name, self.secret_key_size, sk.size))
            sig = outbuf(self.signature_size)
            if self._slh is not None:
                if self._ph:
                    check(_hslh_sign(self._slh, sig, inbuf(msg), len(msg), inbuf(self._ctx),
                                     len(self._ctx), self._ph, sk.ptr, True))
                else:
                    check(_slh_sign(self._slh, sig, inbuf(msg), len(msg), inbuf(self._ctx),
                                    len(self._ctx), sk.ptr, True))
                return bytes(sig)[: self.signature_size]
            if self._cross is not None:
                check(_cross_sign(self._cross, self._strategy, sig, inbuf(msg), len(msg),
                                  sk.ptr))
                return bytes(sig)[: self.signature_size]
            n = c_size(0)
            check(_sign(self._alg, sig, self.signature_size, ctypes.byref(n), inbuf(msg),
                        len(msg), sk.ptr))
            return bytes(sig)[: n.value]
        finally:
            sk.wipe()

    def verify(self, public_key: BytesLike, message: BytesLike, signature: BytesLike) -> bool:
        """True if ``signature`` is a valid signature of ``message`` under ``public_key``; False
        for any signature that does not verify (wrong length and malformed included). A public
        key of the wrong length is a ValueError; a malformed one a grove.EncodingError."""
        pk = self._pk(public_key)
        msg = as_bytes(message, "message")
        sig = as_bytes(signature, "signature")
        if self._slh is not None:
            if self._ph:
                st = _hslh_verify(self._slh, inbuf(sig), len(sig), inbuf(msg), len(msg),
                                  inbuf(self._ctx), len(self._ctx), self._ph, inbuf(pk))
            else:
                st = _slh_verify(self._slh, inbuf(sig), len(sig), inbuf(msg), len(msg),
                                 inbuf(self._ctx), len(self._ctx), inbuf(pk))
        elif self._cross is not None:
            st = _cross_verify(self._cross, self._strategy, inbuf(sig), len(sig), inbuf(msg),
                               len(msg), inbuf(pk))
        else:
            st = _verify(self._alg, inbuf(sig), len(sig), inbuf(msg), len(msg), inbuf(pk))
        if st == VERIFY:
            return False
        check(st)
        return True

# SPDX-License-Identifier: MIT OR Apache-2.0
"""Mithril STM: stake-based threshold multisignatures on grove's BLS12-381 (grove/stm.h).

Parties make keys (:func:`keygen`), a registrar collects ``(stake, vk+pop)`` in a
:class:`KeyRegistration` and closes it (:class:`ClosedRegistration`, whose :attr:`avk` is the
aggregate verification key), each party signs with a :class:`Signer` (it may lose every
lottery: :class:`grove.LotteryLostError`), a clerk aggregates single signatures
(:func:`aggregate`) and anyone verifies the aggregate with the AVK and the parameters
(:func:`verify_aggregate`). Objects travel in grove's binary encodings (the layouts
mithril-stm <= 0.10 wrote); :func:`aggregate_to_json` / :func:`aggregate_to_cbor` give the
shapes Mithril nodes exchange.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple

from ._lib import (BytesLike, Closable, SecretBuffer, as_bytes, c_size, c_status, c_u8p, c_u64,
                   check, fn, inbuf, outbuf, secret_in, lib)

_vp = ctypes.c_void_p
VKPOP_BYTES = 192
VK_BYTES = 96
SK_BYTES = 32
AVK_BYTES = 48

available: bool = getattr(lib, "grove_stm_keygen", None) is not None


class _Params(ctypes.Structure):
    _fields_ = [("m", c_u64), ("k", c_u64), ("phi_f", ctypes.c_double)]


class _Avk(ctypes.Structure):
    _fields_ = [("root", ctypes.c_uint8 * 32), ("nr_leaves", c_u64), ("total_stake", c_u64)]


class _Sig(ctypes.Structure):
    _fields_ = [("sigma", ctypes.c_uint8 * 48), ("signer_index", c_u64),
                ("n_indexes", c_size), ("indexes", ctypes.POINTER(c_u64))]


_P = ctypes.POINTER
_params_check = fn("grove_stm_params_check", c_status, _P(_Params))
_params_to_bytes = fn("grove_stm_params_to_bytes", None, _P(_Params), c_u8p)
_params_from_bytes = fn("grove_stm_params_from_bytes", c_status, _P(_Params), c_u8p, c_size)
_keygen = fn("grove_stm_keygen", c_status, c_u8p, c_u8p, c_u8p)
_vkpop_check = fn("grove_stm_vkpop_check", c_status, c_u8p)
_reg_new = fn("grove_stm_keyreg_new", c_status, _P(_vp))
_reg_free = fn("grove_stm_keyreg_free", None, _vp)
_reg_count = fn("grove_stm_keyreg_count", c_size, _vp)
_reg_add = fn("grove_stm_keyreg_add", c_status, _vp, c_u64, c_u8p)
_reg_close = fn("grove_stm_keyreg_close", c_status, _vp, _P(_vp))
_closed_free = fn("grove_stm_closed_free", None, _vp)
_closed_count = fn("grove_stm_closed_count", c_u64, _vp)
_closed_total = fn("grove_stm_closed_total_stake", c_u64, _vp)
_closed_find = fn("grove_stm_closed_find", c_status, _vp, _P(c_u64), c_u8p)
_closed_enc_bytes = fn("grove_stm_closed_encoded_bytes", c_size, _vp)
_closed_to_bytes = fn("grove_stm_closed_to_bytes", c_status, _vp, c_u8p, c_size, _P(c_size))
_closed_from_bytes = fn("grove_stm_closed_from_bytes", c_status, _P(_vp), c_u8p, c_size)
_closed_avk = fn("grove_stm_closed_avk", None, _vp, _P(_Avk))
_avk_to_bytes = fn("grove_stm_avk_to_bytes", None, _P(_Avk), c_u8p)
_avk_from_bytes = fn("grove_stm_avk_from_bytes", c_status, _P(_Avk), c_u8p, c_size)
_sig_clear = fn("grove_stm_sig_clear", None, _P(_Sig))
_signer_new = fn("grove_stm_signer_new", c_status, _P(_Params), _P(_vp), c_u8p, _vp)
_signer_free = fn("grove_stm_signer_free", None, _vp)
_signer_index = fn("grove_stm_signer_index", c_u64, _vp)
_sign = fn("grove_stm_sign", c_status, _vp, _P(_Sig), c_u8p, c_size)
_sig_verify = fn("grove_stm_sig_verify", c_status, _P(_Params), _P(_Sig), c_u8p, c_size, _vp)
_sig_enc_bytes = fn("grove_stm_sig_encoded_bytes", c_size, _P(_Sig))
_sig_to_bytes = fn("grove_stm_sig_to_bytes", c_status, _P(_Sig), c_u8p, c_size, _P(c_size))
_sig_from_bytes = fn("grove_stm_sig_from_bytes", c_status, _P(_Sig), c_u8p, c_size)
_agg_new = fn("grove_stm_aggregate_new", c_status, _P(_Params), _P(_vp), _P(c_u64), _P(_Sig),
              c_size, c_u8p, c_size, _vp, ctypes.c_uint)
_agg_free = fn("grove_stm_aggregate_free", None, _vp)
_agg_verify = fn("grove_stm_aggregate_verify_threads", c_status, _P(_Params), _vp, c_u8p,
                 c_size, _P(_Avk), ctypes.c_uint)
_agg_enc_bytes = fn("grove_stm_aggregate_encoded_bytes", c_size, _vp)
_agg_to_bytes = fn("grove_stm_aggregate_to_bytes", c_status, _vp, c_u8p, c_size, _P(c_size))
_agg_from_bytes = fn("grove_stm_aggregate_from_bytes", c_status, _P(_vp), c_u8p, c_size)
_agg_count = fn("grove_stm_aggregate_count", c_size, _vp)
_agg_to_json = fn("grove_stm_aggregate_to_json", c_status, _vp, _P(ctypes.c_void_p))
_agg_from_json = fn("grove_stm_aggregate_from_json", c_status, _P(_vp), ctypes.c_char_p, c_size)
_agg_to_cbor = fn("grove_stm_aggregate_to_cbor", c_status, _vp, c_u8p, c_size, _P(c_size),
                  ctypes.c_int)
_agg_from_cbor = fn("grove_stm_aggregate_from_cbor", c_status, _P(_vp), _P(ctypes.c_int), c_u8p,
                    c_size)
_libc_free = ctypes.CDLL(None).free
_libc_free.argtypes = [ctypes.c_void_p]
_libc_free.restype = None

VERIFY = -4


@dataclass(frozen=True)
class Parameters:
    """The STM parameters: ``m`` lottery indices, quorum ``k``, ``phi_f`` (in (0, 0.95] or 1)."""
    m: int
    k: int
    phi_f: float

    def _c(self) -> _Params:
        for v, what in ((self.m, "m"), (self.k, "k")):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v >= 1 << 64:
                raise ValueError("%s must be an int in [0, 2^64)" % what)
        if not isinstance(self.phi_f, (int, float)):
            raise TypeError("phi_f must be a float")
        p = _Params(self.m, self.k, float(self.phi_f))
        check(_params_check(ctypes.byref(p)))
        return p

    def to_bytes(self) -> bytes:
        """The 24-byte binary encoding (m u64 || k u64 || phi_f binary64, big-endian): the body
        of a ``grove stm`` PARAMETERS file."""
        p = self._c()
        out = outbuf(24)
        _params_to_bytes(ctypes.byref(p), out)
        return bytes(out)

    @classmethod
    def from_bytes(cls, data: BytesLike) -> "Parameters":
        """Decode (and check) the 24-byte binary encoding; grove.EncodingError otherwise."""
        b = as_bytes(data, "data")
        p = _Params()
        check(_params_from_bytes(ctypes.byref(p), inbuf(b), len(b)))
        return cls(int(p.m), int(p.k), float(p.phi_f))


def keygen(seed: Optional[BytesLike] = None) -> Tuple[bytes, bytes]:
    """A party's BLS12-381 key: ``(vk+pop (192 bytes), secret key (32 bytes))``; from the system's
    randomness, or from a 32-byte ``seed``."""
    vkpop = outbuf(VKPOP_BYTES)
    sk = SecretBuffer(SK_BYTES)
    sd = secret_in(seed, "seed", 32) if seed is not None else None
    try:
        check(_keygen(vkpop, sk.ptr, sd.ptr if sd is not None else None))
        return bytes(vkpop), sk.bytes()
    finally:
        sk.wipe()
        if sd is not None:
            sd.wipe()


class _Owned(Closable):
    _h: Any = None
    _free: Any = None

    def _handle(self) -> Any:
        if not self._h:
            raise ValueError("the object is closed")
        return self._h

    def close(self) -> None:
        if self._h:
            type(self)._free(self._h)
            self._h = None



class ClosedRegistration(_Owned):
    """A closed registration: the parties in signer-index order and the aggregate verification
    key (:attr:`avk`, 48 bytes: nr_leaves || Merkle root || total stake)."""
    _free = staticmethod(lambda h: _closed_free(h))

    def __init__(self, handle: Any) -> None:
        self._h = handle

    @classmethod
    def from_bytes(cls, data: BytesLike) -> "ClosedRegistration":
        b = as_bytes(data, "data")
        h = _vp()
        check(_closed_from_bytes(ctypes.byref(h), inbuf(b), len(b)))
        return cls(h)

    def to_bytes(self) -> bytes:
        n = _closed_enc_bytes(self._handle())
        out = outbuf(n)
        ln = c_size(0)
        check(_closed_to_bytes(self._h, out, n, ctypes.byref(ln)))
        return bytes(out)[: ln.value]

    def __len__(self) -> int:
        return int(_closed_count(self._handle()))

    @property
    def total_stake(self) -> int:
        return int(_closed_total(self._handle()))

    @property
    def avk(self) -> bytes:
        a = _Avk()
        _closed_avk(self._handle(), ctypes.byref(a))
        out = outbuf(AVK_BYTES)
        _avk_to_bytes(ctypes.byref(a), out)
        return bytes(out)

    def index_of(self, vk: BytesLike) -> int:
        """The signer index of a verification key (its first 96 bytes if a vk+pop is given)."""
        b = as_bytes(vk, "vk")[:VK_BYTES]
        if len(b) != VK_BYTES:
            raise ValueError("a vk is 96 bytes")
        i = c_u64(0)
        check(_closed_find(self._handle(), ctypes.byref(i), inbuf(b)))
        return i.value


class KeyRegistration(_Owned):
    """The registrar: ``register(stake, vkpop)`` for every party (the proof of possession is
    checked; a key registered twice is grove.ExistsError), then :meth:`close`."""
    _free = staticmethod(lambda h: _reg_free(h))

    def __init__(self) -> None:
        h = _vp()
        check(_reg_new(ctypes.byref(h)))
        self._h = h

    def register(self, stake: int, vkpop: BytesLike) -> None:
        if not isinstance(stake, int) or isinstance(stake, bool) or not 0 <= stake < 1 << 64:
            raise ValueError("stake must be an int in [0, 2^64)")
        b = as_bytes(vkpop, "vkpop")
        if len(b) != VKPOP_BYTES:
            raise ValueError("a vk+pop is 192 bytes, got %d" % len(b))
        check(_reg_add(self._handle(), stake, inbuf(b)))

    def __len__(self) -> int:
        return int(_reg_count(self._handle()))

    def close_registration(self) -> ClosedRegistration:
        """The closed registration (this object stays usable)."""
        h = _vp()
        check(_reg_close(self._handle(), ctypes.byref(h)))
        return ClosedRegistration(h)


def _sig_bytes(s: _Sig) -> bytes:
    n = _sig_enc_bytes(ctypes.byref(s))
    out = outbuf(n)
    ln = c_size(0)
    check(_sig_to_bytes(ctypes.byref(s), out, n, ctypes.byref(ln)))
    return bytes(out)[: ln.value]


class Signer(_Owned):
    """A registered party: its secret key, the parameters and the closed registration (which
    must hold the key's vk: grove.NotFoundError otherwise). The secret key is kept inside the
    library and wiped when the signer is closed."""
    _free = staticmethod(lambda h: _signer_free(h))

    def __init__(self, params: Parameters, secret_key: BytesLike,
                 closed: ClosedRegistration) -> None:
        self._params = params._c()
        sk = secret_in(secret_key, "secret key", SK_BYTES)
        h = _vp()
        try:
            check(_signer_new(ctypes.byref(self._params), ctypes.byref(h), sk.ptr,
                              closed._handle()))
        finally:
            sk.wipe()
        self._h = h

    @property
    def index(self) -> int:
        return int(_signer_index(self._handle()))

    def sign(self, message: BytesLike) -> bytes:
        """A single signature (grove's binary encoding); grove.LotteryLostError if the party won
        no lottery for this message."""
        msg = as_bytes(message, "message")
        s = _Sig()
        try:
            check(_sign(self._handle(), ctypes.byref(s), inbuf(msg), len(msg)))
            return _sig_bytes(s)
        finally:
            _sig_clear(ctypes.byref(s))


def verify_single(params: Parameters, signature: BytesLike, message: BytesLike,
                  closed: ClosedRegistration) -> bool:
    """True if a single signature is valid for ``message`` against the closed registration."""
    p = params._c()
    b = as_bytes(signature, "signature")
    msg = as_bytes(message, "message")
    s = _Sig()
    if _sig_from_bytes(ctypes.byref(s), inbuf(b), len(b)) != 0:
        return False
    try:
        st = _sig_verify(ctypes.byref(p), ctypes.byref(s), inbuf(msg), len(msg),
                         closed._handle())
    finally:
        _sig_clear(ctypes.byref(s))
    if st == VERIFY:
        return False
    check(st)
    return True


def aggregate(params: Parameters, signatures: Sequence[BytesLike], message: BytesLike,
              closed: ClosedRegistration, threads: int = 0) -> bytes:
    """The clerk: aggregate single signatures on ``message`` (invalid ones are dropped) into an
    aggregate (grove's binary encoding); grove.NotEnoughError below the quorum; a signature
    that cannot even be decoded is grove.EncodingError."""
    p = params._c()
    msg = as_bytes(message, "message")
    if isinstance(signatures, (bytes, bytearray, memoryview, str)):
        raise TypeError("signatures must be a sequence of single signatures")
    blobs = [as_bytes(s, "signature") for s in signatures]
    arr = (_Sig * max(len(blobs), 1))()
    done = 0
    h = _vp()
    try:
        for b in blobs:
            check(_sig_from_bytes(ctypes.byref(arr[done]), inbuf(b), len(b)),
                  "single signature %d" % done)
            done += 1
        have = c_u64(0)
        check(_agg_new(ctypes.byref(p), ctypes.byref(h), ctypes.byref(have), arr, len(blobs),
                       inbuf(msg), len(msg), closed._handle(), threads))
        n = _agg_enc_bytes(h)
        out = outbuf(n)
        ln = c_size(0)
        check(_agg_to_bytes(h, out, n, ctypes.byref(ln)))
        return bytes(out)[: ln.value]
    finally:
        for i in range(done):
            _sig_clear(ctypes.byref(arr[i]))
        if h:
            _agg_free(h)


def verify_aggregate(params: Parameters, aggregate_sig: BytesLike, message: BytesLike,
                     avk: BytesLike, threads: int = 0) -> bool:
    """True if the aggregate (binary, or CBOR v1 starting with 0x01) verifies on ``message``
    against the 48-byte AVK; False for any aggregate that does not verify or is malformed.
    ``threads``: at most this many threads (0: one per CPU; 1: the calling thread only)."""
    p = params._c()
    b = as_bytes(aggregate_sig, "aggregate")
    msg = as_bytes(message, "message")
    ab = as_bytes(avk, "avk")
    a = _Avk()
    check(_avk_from_bytes(ctypes.byref(a), inbuf(ab), len(ab)))
    h = _vp()
    if b[:1] == b"\x01":
        st = _agg_from_cbor(ctypes.byref(h), None, inbuf(b), len(b))
    else:
        st = _agg_from_bytes(ctypes.byref(h), inbuf(b), len(b))
    if st != 0:
        return False
    try:
        st = _agg_verify(ctypes.byref(p), h, inbuf(msg), len(msg), ctypes.byref(a), threads)
    finally:
        _agg_free(h)
    if st == VERIFY:
        return False
    check(st)
    return True


def _agg_load(b: bytes) -> Any:
    h = _vp()
    check(_agg_from_bytes(ctypes.byref(h), inbuf(b), len(b)))
    return h


def aggregate_to_json(aggregate_sig: BytesLike) -> str:
    """A binary aggregate in mithril-stm's serde_json shape."""
    h = _agg_load(as_bytes(aggregate_sig, "aggregate"))
    out = ctypes.c_void_p()
    try:
        check(_agg_to_json(h, ctypes.byref(out)))
        text = ctypes.string_at(out).decode()
        _libc_free(out)
        return text
    finally:
        _agg_free(h)


def aggregate_from_json(text: str) -> bytes:
    """mithril-stm's JSON aggregate as grove's binary encoding."""
    if not isinstance(text, str):
        raise TypeError("text must be str")
    t = text.encode()
    h = _vp()
    check(_agg_from_json(ctypes.byref(h), t, len(t)))
    try:
        n = _agg_enc_bytes(h)
        out = outbuf(n)
        ln = c_size(0)
        check(_agg_to_bytes(h, out, n, ctypes.byref(ln)))
        return bytes(out)[: ln.value]
    finally:
        _agg_free(h)


def aggregate_to_cbor(aggregate_sig: BytesLike, form: str = "0.11") -> bytes:
    """A binary aggregate as mithril-stm's CBOR v1 (``form`` "0.11" or "0.12")."""
    if form not in ("0.11", "0.12"):
        raise ValueError("form must be '0.11' or '0.12'")
    h = _agg_load(as_bytes(aggregate_sig, "aggregate"))
    try:
        ln = c_size(0)
        f = 0 if form == "0.11" else 1
        st = _agg_to_cbor(h, None, 0, ctypes.byref(ln), f)
        if st not in (0, -2):
            check(st)
        out = outbuf(ln.value)
        check(_agg_to_cbor(h, out, ln.value, ctypes.byref(ln), f))
        return bytes(out)[: ln.value]
    finally:
        _agg_free(h)


def verify_certificate_chain(certificates: Any, genesis: Any) -> Any:
    """Mithril certificate-chain verification: :func:`grove.mithril.verify_chain` (returns its
    :class:`grove.mithril.ChainResult`)."""
    from . import mithril
    return mithril.verify_chain(certificates, genesis)

# SPDX-License-Identifier: MIT OR Apache-2.0
"""Mithril certificate chains (grove/mithril.h): verify certificates as a Mithril aggregator's API
serves them, with mithril-common's rules (docs/mithril.md).

>>> result = grove.mithril.verify_chain(open("certificates.json", "rb").read(),
...                                     open("genesis.vkey").read())
>>> result.valid, [c.rule for c in result.certificates if not c.valid]

For a light client verifying as it downloads, :class:`Certificate` and :meth:`Certificate.verify`
check one certificate against its already verified predecessor.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import List, Optional, Union

from ._lib import (Closable, EncodingError, UnsupportedError, c_size, c_status, c_u8p, c_u64,
                   check, fn)

TextLike = Union[str, bytes, bytearray, memoryview]

GENESIS_VK_BYTES = 32

_rule_name = fn("grove_mithril_rule_name", ctypes.c_char_p, ctypes.c_int)
_rule_text = fn("grove_mithril_rule_text", ctypes.c_char_p, ctypes.c_int)
_genesis = fn("grove_mithril_genesis_key_from_text", c_status, c_u8p, ctypes.c_char_p, c_size)
_cert_from = fn("grove_mithril_cert_from_json", c_status, ctypes.POINTER(ctypes.c_void_p),
                ctypes.c_char_p, c_size)
_cert_free = fn("grove_mithril_cert_free", None, ctypes.c_void_p)
_cert_hash = fn("grove_mithril_cert_hash", ctypes.c_char_p, ctypes.c_void_p)
_cert_prev = fn("grove_mithril_cert_previous_hash", ctypes.c_char_p, ctypes.c_void_p)
_cert_epoch = fn("grove_mithril_cert_epoch", c_u64, ctypes.c_void_p)
_cert_genesis = fn("grove_mithril_cert_is_genesis", ctypes.c_bool, ctypes.c_void_p)
_cert_verify = fn("grove_mithril_cert_verify", c_status, ctypes.c_void_p,
                  ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_char_p),
                  ctypes.c_void_p, c_u8p)
_chain_from = fn("grove_mithril_chain_from_json", c_status, ctypes.POINTER(ctypes.c_void_p),
                 ctypes.c_char_p, c_size)
_chain_free = fn("grove_mithril_chain_free", None, ctypes.c_void_p)
_chain_count = fn("grove_mithril_chain_count", c_size, ctypes.c_void_p)
_chain_cert = fn("grove_mithril_chain_cert", ctypes.c_void_p, ctypes.c_void_p, c_size)
_chain_verify = fn("grove_mithril_chain_verify", c_status, ctypes.c_void_p, c_u8p)
_chain_result = fn("grove_mithril_chain_result", c_status, ctypes.c_void_p, c_size,
                   ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_char_p))

_VERIFY_FAILED = -4  # GROVE_ERR_VERIFY: a verdict, not an error of the call


def available() -> bool:
    """True when this libgrove was built with Mithril support (GROVE_WITH_MITHRIL)."""
    return _chain_verify is not None


def _need() -> None:
    if not available():
        raise UnsupportedError(-11, "this libgrove was built without Mithril support")


def _text(value: TextLike, what: str) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be str or bytes, not {type(value).__name__}")


def _s(p: Optional[bytes]) -> str:
    return p.decode("utf-8", "replace") if p else ""


def rule_name(rule: int) -> str:
    """The short stable name of a rule ("ok", "hash", "multi_signature", ...)."""
    _need()
    return _s(_rule_name(rule))


def genesis_key(text: TextLike) -> bytes:
    """The 32-byte Ed25519 genesis key from a genesis.vkey file's text (EncodingError if bad)."""
    _need()
    t = _text(text, "genesis key")
    vk = (ctypes.c_uint8 * GENESIS_VK_BYTES)()
    check(_genesis(vk, t, len(t)), "genesis verification key")
    return bytes(vk)


def _vk_arg(genesis: TextLike) -> ctypes.Array:
    vk = genesis if isinstance(genesis, (bytes, bytearray)) and len(genesis) == GENESIS_VK_BYTES \
        else genesis_key(genesis)
    return (ctypes.c_uint8 * GENESIS_VK_BYTES).from_buffer_copy(bytes(vk))


@dataclass(frozen=True)
class Verdict:
    """The verdict on one certificate: ``rule`` is "ok" when it holds."""
    hash: str
    epoch: int
    rule: str
    detail: str

    @property
    def valid(self) -> bool:
        return self.rule == "ok"


class Certificate(Closable):
    """One certificate (a JSON object as GET /certificate/{hash} serves it)."""

    def __init__(self, json_text: TextLike) -> None:
        _need()
        t = _text(json_text, "certificate")
        h = ctypes.c_void_p()
        check(_cert_from(ctypes.byref(h), t, len(t)), "not a certificate JSON object")
        self._h: Optional[ctypes.c_void_p] = h

    def close(self) -> None:
        if self._h:
            _cert_free(self._h)
            self._h = None

    @property
    def hash(self) -> str:
        return _s(_cert_hash(self._h))

    @property
    def previous_hash(self) -> str:
        return _s(_cert_prev(self._h))

    @property
    def epoch(self) -> int:
        return int(_cert_epoch(self._h))

    @property
    def is_genesis(self) -> bool:
        return bool(_cert_genesis(self._h))

    def verify(self, previous: Optional["Certificate"], genesis: TextLike) -> Verdict:
        """Verify against an already verified predecessor (None for a genesis certificate) and
        the genesis key (bytes or a genesis.vkey text). Returns the verdict; raises only for
        misuse."""
        if previous is not None and not isinstance(previous, Certificate):
            raise TypeError("previous must be a Certificate or None")
        rule = ctypes.c_int(0)
        detail = ctypes.c_char_p()
        st = _cert_verify(self._h, ctypes.byref(rule), ctypes.byref(detail),
                          previous._h if previous is not None else None, _vk_arg(genesis))
        if st not in (0, _VERIFY_FAILED):
            check(st)
        return Verdict(self.hash, self.epoch, rule_name(rule.value), _s(detail.value))


@dataclass(frozen=True)
class ChainResult:
    """Every certificate's verdict, in the order of the file; ``valid`` when all hold."""
    certificates: List[Verdict]

    @property
    def valid(self) -> bool:
        return all(c.valid for c in self.certificates)


def verify_chain(certificates: TextLike, genesis: TextLike) -> ChainResult:
    """Verify a file of certificates (one, an array, or a map by hash, as JSON text) back to
    genesis with the genesis key (32 bytes or a genesis.vkey text). A certificate whose field
    does not decode is invalid (rule "decode"); EncodingError only when the text is not
    certificate JSON at all."""
    _need()
    t = _text(certificates, "certificates")
    vk = _vk_arg(genesis)
    h = ctypes.c_void_p()
    check(_chain_from(ctypes.byref(h), t, len(t)), "not certificate JSON")
    try:
        st = _chain_verify(h, vk)
        if st not in (0, _VERIFY_FAILED):
            check(st)
        out = []
        for i in range(_chain_count(h)):
            rule = ctypes.c_int(0)
            detail = ctypes.c_char_p()
            check(_chain_result(h, i, ctypes.byref(rule), ctypes.byref(detail)))
            c = _chain_cert(h, i)
            out.append(Verdict(_s(_cert_hash(c)), int(_cert_epoch(c)), rule_name(rule.value),
                               _s(detail.value)))
        return ChainResult(out)
    finally:
        _chain_free(h)


__all__ = ["Certificate", "ChainResult", "Verdict", "available", "genesis_key", "rule_name",
           "verify_chain", "EncodingError"]

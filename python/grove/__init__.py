# SPDX-License-Identifier: MIT OR Apache-2.0
"""grove: post-quantum and group signatures from libgrove, for Python.

Pure Python over the C library (ctypes). libgrove is found through ``GROVE_LIBRARY`` (a path to
``libgrove.so``) or the system loader. Every library failure is a :class:`GroveError` subclass
carrying the library's message; see docs/python.md for a first-five-minutes walk-through.

* :class:`Signature`: SLH-DSA, SPHINCS+, CROSS, BLS12-381 by name (stateless).
* :class:`XMSSKey`, :mod:`grove.xmss`: XMSS / XMSS^MT keys bound to their key file and the
  state registry (:class:`Registry`).
* :mod:`grove.dgsp`: DGSP group signatures (Manager, Wallet, Verifier).
* :mod:`grove.stm`: Mithril STM threshold multisignatures.
* :mod:`grove.mithril`: Mithril certificate chains.
* :mod:`grove.files`: grove files (envelopes) and the standard encodings (SPKI, PKCS#8, PEM).
* :mod:`grove.hash`: SHA-2, SHA-3, SHAKE.
"""
from ._lib import (BufferTooSmallError, DeniedError, EncodingError, ExhaustedError, ExistsError,
                   GroveError, GroveIOError, GroveOverflowError, InsecureProfileError,
                   InternalError, InvalidArgumentError, LotteryLostError, NotEnoughError,
                   NotFoundError, OutOfMemoryError, RandomnessError, RevokedError, StateError,
                   StorageError, UnsupportedError, VerifyError, version, wipe)
from .signature import Signature
from .xmss import Registry, XMSSKey
from . import dgsp, files, hash, mithril, stm, xmss

__version__ = "0.1.0"

__all__ = [
    "Signature", "XMSSKey", "Registry", "dgsp", "mithril", "stm", "xmss", "files", "hash", "wipe",
    "version", "GroveError", "InvalidArgumentError", "BufferTooSmallError", "EncodingError",
    "VerifyError", "RevokedError", "NotFoundError", "ExistsError", "ExhaustedError",
    "StorageError", "RandomnessError", "UnsupportedError", "InsecureProfileError",
    "InternalError", "OutOfMemoryError", "StateError", "GroveIOError", "DeniedError",
    "GroveOverflowError", "LotteryLostError", "NotEnoughError",
]

# SPDX-License-Identifier: MIT OR Apache-2.0
"""XMSS and XMSS^MT (RFC 8391, SP 800-208): stateful keys bound to their key file and the state
registry (grove/xmss.h key files, grove/state.h).

A secret key never leaves its key file: :class:`XMSSKey` holds the file open and locked, and
every signature goes through grove's persist-before-release path: the index is reserved and
written durably to the key file and then to the state registry *before* the signature is
computed, and the signature is verified before it is returned. A restored backup or a copy of
the key file is refused (:class:`grove.StateError`); an exhausted key raises
:class:`grove.ExhaustedError`. Key files are the ones ``grove xmss`` reads and writes.
"""
from __future__ import annotations

import ctypes
import os
from typing import Any, List, Optional

from ._lib import (Closable, BytesLike, StateError, as_bytes, c_size, c_status, c_u8p, c_u64, check,
                   errbuf_text, fn, inbuf, outbuf, path_arg)

_vp = ctypes.c_void_p
ERR_CAP = 512


class _Opts(ctypes.Structure):
    _fields_ = [("threads", ctypes.c_uint), ("progress", _vp), ("progress_arg", _vp)]


class _Info(ctypes.Structure):
    _fields_ = [("params", _vp), ("version", ctypes.c_uint), ("index", c_u64),
                ("high_water", c_u64), ("range_start", c_u64), ("range_end", c_u64),
                ("remaining", c_u64), ("exhausted", ctypes.c_bool),
                ("generation", ctypes.c_uint32), ("birth", ctypes.c_uint32),
                ("has_parent", ctypes.c_bool), ("parent_id", ctypes.c_uint8 * 16),
                ("key_id", ctypes.c_uint8 * 16), ("pk", ctypes.c_uint8 * 132),
                ("pk_bytes", c_size), ("form", ctypes.c_int)]


_alg_count = fn("grove_sig_stfl_alg_count", c_size)
_alg_at = fn("grove_sig_stfl_alg_at", _vp, c_size)
_alg_get = fn("grove_sig_stfl_alg_get", _vp, ctypes.c_char_p)
_alg_name = fn("grove_sig_stfl_alg_name", ctypes.c_char_p, _vp)
_stfl_pk_bytes = fn("grove_sig_stfl_pk_bytes", c_size, _vp)
_stfl_sig_bytes = fn("grove_sig_stfl_sig_bytes", c_size, _vp)
_stfl_verify = fn("grove_sig_stfl_verify", c_status, _vp, c_u8p, c_size, c_u8p, c_size, c_u8p)

_params_get = fn("grove_xmss_params_get", _vp, ctypes.c_char_p)
_params_name = fn("grove_xmss_params_name", ctypes.c_char_p, _vp)
_params_family = fn("grove_xmss_params_family", ctypes.c_int, _vp)
_sig_bytes = fn("grove_xmss_sig_bytes", c_size, _vp)
_total = fn("grove_xmss_total_signatures", c_u64, _vp)
_keygen = fn("grove_xmss_keygen", c_status, _vp, ctypes.POINTER(_vp), ctypes.POINTER(_Opts))
_key_free = fn("grove_xmss_key_free", None, _vp)
_sign_begin = fn("grove_xmss_key_sign_begin", c_status, _vp, ctypes.POINTER(_vp),
                 ctypes.POINTER(c_u64))
_sign_update = fn("grove_xmss_sign_update", c_status, _vp, c_u8p, c_size)
_sign_finish = fn("grove_xmss_sign_finish_checked", c_status, _vp, c_u8p)
_sign_abort = fn("grove_xmss_sign_abort", None, _vp)
_kf_open = fn("grove_xmss_keyfile_open", c_status, ctypes.POINTER(_vp), ctypes.c_char_p, _vp,
              ctypes.c_uint, ctypes.POINTER(_Opts), ctypes.c_char_p, c_size)
_kf_key = fn("grove_xmss_keyfile_key", _vp, _vp)
_kf_info = fn("grove_xmss_keyfile_info", c_status, _vp, ctypes.POINTER(_Info))
_kf_error = fn("grove_xmss_keyfile_error", ctypes.c_char_p, _vp)
_kf_split = fn("grove_xmss_keyfile_split", c_status, _vp, ctypes.POINTER(c_u64),
               ctypes.POINTER(c_u64), c_u64, ctypes.c_char_p, ctypes.c_int,
               ctypes.POINTER(_Opts), ctypes.c_char_p, c_size)
_kf_create = fn("grove_xmss_keyfile_create", c_status, ctypes.c_char_p, _vp, _vp, ctypes.c_int,
                ctypes.c_char_p, c_size)
_kf_read_info = fn("grove_xmss_keyfile_read_info", c_status, ctypes.POINTER(_Info),
                   ctypes.c_char_p, ctypes.c_char_p, c_size)
_kf_close = fn("grove_xmss_keyfile_close", None, _vp)

_reg_open = fn("grove_registry_open", c_status, ctypes.POINTER(_vp), ctypes.c_char_p)
_reg_close = fn("grove_registry_close", None, _vp)
_reg_dir = fn("grove_registry_dir", ctypes.c_char_p, _vp)

STORAGE = -9
RECOVER = 1
# Key files open in this process (real paths): a second open would wait for the file's lock
# forever, so it is refused instead.
_OPEN: set = set()


class Registry(Closable):
    """The state registry (grove/state.h): the record, kept apart from key files and wallets, of
    how far each one-time key was used. ``Registry()`` opens the default folder
    ($GROVE_STATE_DIR, else $XDG_STATE_HOME/grove, else ~/.local/state/grove), the one the
    ``grove`` command uses; ``Registry(path)`` another one. Keep it open while keys bound to it
    are open (they hold a reference to it)."""

    def __init__(self, path: Optional["os.PathLike[str] | str"] = None) -> None:
        h = _vp()
        check(_reg_open(ctypes.byref(h), path_arg(path) if path is not None else None))
        self._h: Any = h
        self._users = 0

    @property
    def handle(self) -> Any:
        if not self._h:
            raise ValueError("the registry is closed")
        return self._h

    def _use(self) -> Any:
        h = self.handle
        self._users += 1
        return h

    def _release(self) -> None:
        self._users -= 1

    @property
    def path(self) -> str:
        return _reg_dir(self.handle).decode()

    def close(self) -> None:
        """Close the registry; refused (ValueError) while keys bound to it are open."""
        if self._users > 0:
            raise ValueError("%d key(s), wallet(s) or store(s) bound to this registry are still "
                             "open: close them first" % self._users)
        if self._h:
            _reg_close(self._h)
            self._h = None



def algorithms() -> List[str]:
    """The 21 XMSS and 56 XMSS^MT set names, as ``grove xmss params`` prints them."""
    return [_alg_name(_alg_at(i)).decode() for i in range(_alg_count())]


def _params(name: str) -> Any:
    if not isinstance(name, str):
        raise TypeError("parameter set name must be str")
    p = _params_get(name.encode()) if "\0" not in name else None
    if not p:
        raise ValueError("unknown XMSS / XMSS^MT parameter set %r" % name)
    return p


def verify(name: str, public_key: BytesLike, message: BytesLike, signature: BytesLike) -> bool:
    """True if ``signature`` is a valid signature of ``message`` under ``public_key`` for the set
    ``name``; False for any signature that does not verify. A public key that is not one of the
    set's raises grove.EncodingError (ValueError for a wrong length)."""
    if not isinstance(name, str):
        raise TypeError("parameter set name must be str")
    a = _alg_get(name.encode()) if "\0" not in name else None
    if not a:
        raise ValueError("unknown XMSS / XMSS^MT parameter set %r" % name)
    pk = as_bytes(public_key, "public key")
    if len(pk) != _stfl_pk_bytes(a):
        raise ValueError("a %s public key is %d bytes, got %d"
                         % (_alg_name(a).decode(), _stfl_pk_bytes(a), len(pk)))
    msg = as_bytes(message, "message")
    sig = as_bytes(signature, "signature")
    st = _stfl_verify(a, inbuf(sig), len(sig), inbuf(msg), len(msg), inbuf(pk))
    if st == -4:
        return False
    check(st)
    return True


def _info_of(info: _Info) -> dict:
    return {"algorithm": _params_name(info.params).decode(), "index": info.index,
            "high_water": info.high_water, "range": (info.range_start, info.range_end),
            "remaining": info.remaining, "exhausted": bool(info.exhausted),
            "generation": info.generation, "key_id": bytes(info.key_id).hex(),
            "public_key": bytes(info.pk)[: info.pk_bytes]}


def read_info(path: "os.PathLike[str] | str") -> dict:
    """What an XMSS key file says (checked, not locked): algorithm, index, remaining, ..."""
    info = _Info()
    err = ctypes.create_string_buffer(ERR_CAP)
    check(_kf_read_info(ctypes.byref(info), path_arg(path), err, ERR_CAP), errbuf_text(err))
    return _info_of(info)


class XMSSKey(Closable):
    """An XMSS / XMSS^MT secret key: its key file, open and locked, checked against the state
    registry. Use it as a context manager (or call :meth:`close`)::

        with grove.XMSSKey.generate("XMSS-SHA2_10_256", "signer.key") as key:
            sig = key.sign(b"firmware image")
        grove.xmss.verify("XMSS-SHA2_10_256", key.public_key, b"firmware image", sig)

    ``registry``: a :class:`Registry` (default: the default registry, the ``grove`` command's),
    or ``False`` for none (then a restored copy of the file goes undetected; not recommended).
    """

    def __init__(self, path: "os.PathLike[str] | str", registry: "Registry | None | bool" = None,
                 *, recover: bool = False, threads: int = 0) -> None:
        self._kf: Any = None
        self._own_reg = False
        self._reg = None
        self._real = os.path.realpath(path_arg(path))
        if self._real in _OPEN:
            raise StateError(-15, "%s is already open in this process (close it first; a second "
                                  "open would wait for its lock)" % os.fspath(path))
        if registry is None:
            registry = Registry()
            self._own_reg = True
        self._reg: Optional[Registry] = registry if registry is not False else None
        self._opts = _Opts(threads, None, None)
        err = ctypes.create_string_buffer(ERR_CAP)
        kf = _vp()
        st = _kf_open(ctypes.byref(kf), path_arg(path),
                      self._reg.handle if self._reg is not None else None,
                      RECOVER if recover else 0, ctypes.byref(self._opts), err, ERR_CAP)
        if st != 0:
            if self._own_reg and self._reg is not None:
                self._reg.close()
            self._reg = None
            check(st, errbuf_text(err))
        self._kf = kf
        _OPEN.add(self._real)
        if self._reg is not None:
            self._reg._use()
        self.path: str = os.fspath(path)

    @classmethod
    def generate(cls, name: str, path: "os.PathLike[str] | str",
                 registry: "Registry | None | bool" = None, *, armored: bool = True,
                 threads: int = 0) -> "XMSSKey":
        """A fresh key pair: the secret key goes into a new key file ``path`` (mode 0600; must
        not exist), registered; returns the key opened."""
        p = _params(name)
        own = registry is None
        reg = Registry() if registry is None else registry
        opts = _Opts(threads, None, None)
        key = _vp()
        try:
            check(_keygen(p, ctypes.byref(key), ctypes.byref(opts)))
            err = ctypes.create_string_buffer(ERR_CAP)
            try:
                check(_kf_create(path_arg(path), reg.handle if reg is not False else None, key,
                                 1 if armored else 0, err, ERR_CAP), errbuf_text(err))
            finally:
                _key_free(key)
            k = cls(path, reg, threads=threads)
            k._own_reg = own
            return k
        except BaseException:
            if own:
                reg.close()
            raise

    def _handle(self) -> Any:
        if not self._kf:
            raise ValueError("the key is closed")
        return self._kf

    def info(self) -> dict:
        """What the key file says now: algorithm, index, high-water mark, range, remaining,
        exhausted, generation, key id (hex), public key."""
        info = _Info()
        check(_kf_info(self._handle(), ctypes.byref(info)))
        return _info_of(info)

    @property
    def algorithm(self) -> str:
        return str(self.info()["algorithm"])

    @property
    def public_key(self) -> bytes:
        return bytes(self.info()["public_key"])

    @property
    def remaining(self) -> int:
        """Signatures the key can still make."""
        return int(self.info()["remaining"])

    def sign(self, message: BytesLike) -> bytes:
        """Sign with the next index, recorded durably in the key file and the registry before
        the signature exists; the signature is verified before it is returned.
        grove.ExhaustedError when no index is left; grove.StorageError if the state could not
        be saved (nothing was signed)."""
        msg = as_bytes(message, "message")
        kf = self._handle()
        key = _kf_key(kf)
        p = _params_get(self.algorithm.encode())
        ctx = _vp()
        idx = c_u64(0)
        st = _sign_begin(key, ctypes.byref(ctx), ctypes.byref(idx))
        if st != 0:
            detail = _kf_error(kf) if st == STORAGE else None
            check(st, detail.decode("utf-8", "replace") if detail else "")
        try:
            check(_sign_update(ctx, inbuf(msg), len(msg)))
        except BaseException:
            _sign_abort(ctx)
            raise
        n = _sig_bytes(p)
        sig = outbuf(n)
        check(_sign_finish(ctx, sig))
        return bytes(sig)[:n]

    def verify(self, message: BytesLike, signature: BytesLike) -> bool:
        """Verify a signature under this key's public key."""
        return verify(self.algorithm, self.public_key, message, signature)

    def split(self, count: int, path: "os.PathLike[str] | str", *, armored: bool = True) -> range:
        """Move the last ``count`` unused indices to a new key file ``path`` (another signer's
        own range; recorded in the registry first). Returns the moved index range."""
        if not isinstance(count, int) or count <= 0:
            raise ValueError("count must be a positive int")
        start, end = c_u64(0), c_u64(0)
        err = ctypes.create_string_buffer(ERR_CAP)
        check(_kf_split(self._handle(), ctypes.byref(start), ctypes.byref(end), count,
                        path_arg(path), 1 if armored else 0, ctypes.byref(self._opts), err,
                        ERR_CAP), errbuf_text(err))
        return range(start.value, end.value)

    def close(self) -> None:
        """Unlock the key file and wipe the key from memory."""
        if self._kf:
            _kf_close(self._kf)
            self._kf = None
            _OPEN.discard(self._real)
            if self._reg is not None:
                self._reg._release()
        if self._own_reg and self._reg is not None:
            self._reg.close()
        self._reg = None


# SPDX-License-Identifier: MIT OR Apache-2.0
"""DGSP post-quantum group signatures (grove/dgsp.h), by role.

* :class:`Manager` holds the manager key and the group's store (member list and revocation
  list: an SQLite file, or memory), admits members, certifies their one-time keys, opens
  signatures, revokes members and publishes signed revocation lists.
* :class:`Wallet` is a member's: its credential, its one-time keys and their certificates; each
  signature uses a fresh certificate that is marked used durably (in the wallet file and, with
  a registry, in the state registry) before the signature exists.
* :class:`Verifier` checks signatures with the group public key and a signed revocation list,
  and judges openings.
"""
from __future__ import annotations

import ctypes
import os
from typing import Any, Iterable, List, Optional, Tuple

from ._lib import (BytesLike, Closable, SecretBuffer, as_bytes, c_size, c_status, c_u8p, c_u64,
                   check, cstr, fn, inbuf, lib, outbuf, path_arg, secret_in)
from .xmss import Registry

_vp = ctypes.c_void_p
_P = ctypes.POINTER
available: bool = getattr(lib, "grove_dgsp_join", None) is not None


class _Cfg(ctypes.Structure):
    _fields_ = [("params", _vp), ("spx", _vp), ("profile", ctypes.c_int), ("n", ctypes.c_uint)]


class _Store(ctypes.Structure):
    _fields_ = [("ops", _vp), ("ctx", _vp), ("guard", _vp)]


class _Ops(ctypes.Structure):
    _fields_ = [(n, _vp) for n in ("add_members", "get_member", "find_member", "member_count",
                                   "reserve", "is_revoked", "add_revoked", "list_revoked")]


_ADD_REVOKED = ctypes.CFUNCTYPE(c_status, _vp, c_u8p, c_size)
_LIST_CB = ctypes.CFUNCTYPE(c_status, _vp, c_u8p, c_size)
_LIST_REVOKED = ctypes.CFUNCTYPE(c_status, _vp, _LIST_CB, _vp)

_params_get = fn("grove_dgsp_params_get", _vp, ctypes.c_char_p)
_params_count = fn("grove_dgsp_params_count", c_size)
_params_at = fn("grove_dgsp_params_at", _vp, c_size)
_params_name = fn("grove_dgsp_params_name", ctypes.c_char_p, _vp)
_cfg_init = fn("grove_dgsp_cfg_init", c_status, _P(_Cfg), _vp, ctypes.c_int, ctypes.c_int)
_profile_from = fn("grove_dgsp_profile_from_name", c_status, _P(ctypes.c_int), ctypes.c_char_p)
_flavour_from = fn("grove_dgsp_flavour_from_name", c_status, _P(ctypes.c_int), ctypes.c_char_p)
_pk_bytes = fn("grove_dgsp_pk_bytes", c_size, _P(_Cfg))
_sk_bytes = fn("grove_dgsp_sk_bytes", c_size, _P(_Cfg))
_cert_bytes = fn("grove_dgsp_cert_bytes", c_size, _P(_Cfg))
_sig_bytes = fn("grove_dgsp_sig_bytes", c_size, _P(_Cfg))
_set_name = fn("grove_dgsp_set_name", c_status, _P(_Cfg), ctypes.c_char_p)
_store_memory = fn("grove_dgsp_store_memory_open", c_status, _P(_P(_Store)))
_store_sqlite = fn("grove_dgsp_store_sqlite_open", c_status, _P(_P(_Store)), ctypes.c_char_p,
                   ctypes.c_bool)
_store_close = fn("grove_dgsp_store_close", None, _P(_Store))
_store_set_registry = fn("grove_dgsp_store_set_registry", c_status, _P(_Store), _vp, c_u8p,
                         c_size, ctypes.c_char_p)
_store_error = fn("grove_dgsp_store_error", ctypes.c_char_p, _P(_Store))
_keygen_manager = fn("grove_dgsp_keygen_manager", c_status, _P(_Cfg), c_u8p, c_u8p)
_join = fn("grove_dgsp_join", c_status, _P(_Cfg), _P(_Store), _P(c_u64), c_u8p, ctypes.c_char_p,
           c_u8p)
_gen_cert = fn("grove_dgsp_gen_cert", c_status, _P(_Cfg), _P(_Store), c_u8p, c_u8p, c_size,
               c_u64, c_u8p, c_u8p, ctypes.c_uint)
_open = fn("grove_dgsp_open", c_status, _P(_Cfg), _P(_Store), _P(c_u64), ctypes.c_char_p, c_u8p,
           c_u8p, c_size, c_u8p, c_size, c_u8p)
_revoke = fn("grove_dgsp_revoke", c_status, _P(_Cfg), _P(_Store), _P(c_size), _P(c_u64), c_size,
             c_u8p)
_rl_bytes = fn("grove_dgsp_revocations_bytes", c_size, _P(_Cfg), c_u64)
_rl_sign = fn("grove_dgsp_revocations_sign", c_status, _P(_Cfg), c_u8p, c_size, _P(c_size), c_u64,
              c_u64, c_u8p, c_u64, c_u8p)
_rl_verify = fn("grove_dgsp_revocations_verify", c_status, _P(_Cfg), _P(c_u64), _P(c_u64),
                _P(c_u8p), _P(c_u64), c_u8p, c_size, c_u8p)
_verify = fn("grove_dgsp_verify", c_status, _P(_Cfg), c_u8p, c_size, c_u8p, c_size, c_u8p,
             _P(_Store))
_judge = fn("grove_dgsp_judge", c_status, _P(_Cfg), c_u8p, c_size, c_u8p, c_size, c_u64, c_u8p)
_w_memory = fn("grove_dgsp_wallet_memory_open", c_status, _P(_Cfg), _P(_vp), c_u8p, c_u64, c_u8p)
_w_create = fn("grove_dgsp_wallet_create", c_status, _P(_Cfg), _P(_vp), ctypes.c_char_p, c_u8p,
               c_u64, c_u8p, c_u8p)
_w_open = fn("grove_dgsp_wallet_open", c_status, _P(_vp), ctypes.c_char_p)
_w_close = fn("grove_dgsp_wallet_close", None, _vp)
_w_cfg = fn("grove_dgsp_wallet_cfg", _P(_Cfg), _vp)
_w_id = fn("grove_dgsp_wallet_id", c_u64, _vp)
_w_available = fn("grove_dgsp_wallet_available", c_size, _vp)
_w_csr = fn("grove_dgsp_wallet_csr", c_status, _vp, c_u8p, c_size)
_w_import = fn("grove_dgsp_wallet_import", c_status, _vp, c_u8p, c_u8p, c_size, c_u8p)
_w_sign = fn("grove_dgsp_wallet_sign", c_status, _vp, c_u8p, c_u8p, c_size)
_w_set_registry = fn("grove_dgsp_wallet_set_registry", c_status, _vp, _vp)
_w_last_error = fn("grove_dgsp_wallet_last_error", ctypes.c_char_p, _vp)
_keygen_user = fn("grove_dgsp_keygen_user", c_status, _P(_Cfg), c_u8p)

VERIFY, REVOKED = -4, -5


def parameter_sets() -> List[str]:
    """The DGSP parameter sets, as ``grove dgsp params`` prints them ("shake-256f", ...)."""
    return [_params_name(_params_at(i)).decode() for i in range(_params_count())]


class Config:
    """A group's configuration: parameter set (default "shake-256f"), flavour ("r3.1", the
    default, or "fips205") and profile ("grove"; "dgsp-rs-0.1" only verifies crate data)."""

    def __init__(self, params: str = "shake-256f", flavour: str = "r3.1",
                 profile: str = "grove") -> None:
        p = _params_get(cstr(params, "params"))
        if not p:
            raise ValueError("unknown DGSP parameter set %r" % params)
        fl, pr = ctypes.c_int(0), ctypes.c_int(0)
        if _flavour_from(ctypes.byref(fl), cstr(flavour, "flavour")) != 0:
            raise ValueError("unknown flavour %r (r3.1, fips205)" % flavour)
        if _profile_from(ctypes.byref(pr), cstr(profile, "profile")) != 0:
            raise ValueError("unknown profile %r (grove, dgsp-rs-0.1)" % profile)
        self._c = _Cfg()
        check(_cfg_init(ctypes.byref(self._c), p, fl.value, pr.value))
        self._sizes()

    @classmethod
    def _from_c(cls, c: _Cfg) -> "Config":
        self = cls.__new__(cls)
        self._c = _Cfg(c.params, c.spx, c.profile, c.n)
        self._sizes()
        return self

    def _sizes(self) -> None:
        r = ctypes.byref(self._c)
        self.n: int = self._c.n
        self.public_key_size: int = _pk_bytes(r)
        self.secret_key_size: int = _sk_bytes(r)
        self.certificate_size: int = _cert_bytes(r)
        self.signature_size: int = _sig_bytes(r)
        name = ctypes.create_string_buffer(49)
        check(_set_name(r, name))
        self.name: str = name.value.decode()

    def __repr__(self) -> str:
        return "grove.dgsp.Config(%r)" % self.name

    def _pk(self, pk: Any) -> bytes:
        b = as_bytes(pk, "group public key")
        if len(b) != self.public_key_size:
            raise ValueError("a %s group public key is %d bytes, got %d"
                             % (self.name, self.public_key_size, len(b)))
        return b


def _store_add_revoked(store: Any, zetas: bytes) -> None:
    ops = ctypes.cast(store.contents.ops, _P(_Ops)).contents
    f = _ADD_REVOKED(ops.add_revoked)
    check(f(store.contents.ctx, inbuf(zetas), len(zetas) // 16))


def _store_list_revoked(store: Any) -> bytes:
    ops = ctypes.cast(store.contents.ops, _P(_Ops)).contents
    f = _LIST_REVOKED(ops.list_revoked)
    out: List[bytes] = []

    def cb(arg: Any, z: Any, count: int) -> int:
        out.append(ctypes.string_at(z, 16 * count))
        return 0

    check(f(store.contents.ctx, _LIST_CB(cb), None))
    return b"".join(out)


class Manager(Closable):
    """The group manager: the manager key (kept in a wiped ctypes buffer) and the store.

    ``Manager.create(config, store=None)`` makes a new group (``store``: the path of a new SQLite
    store file, or None for a store in memory); ``Manager(config, public_key, secret_key,
    store)`` opens an existing one. With a file store the state registry guards it (a restored
    backup of the store is refused with grove.StateError); ``registry`` as in
    :class:`grove.XMSSKey`.
    """

    def __init__(self, config: Config, public_key: BytesLike, secret_key: BytesLike,
                 store: "os.PathLike[str] | str | None" = None,
                 registry: "Registry | None | bool" = None, *, _create: bool = False) -> None:
        if not isinstance(config, Config):
            raise TypeError("config must be a grove.dgsp.Config")
        self.config = config
        self.public_key: bytes = config._pk(public_key)
        self._sk = secret_in(secret_key, "manager secret key", config.secret_key_size)
        self._store: Any = None
        self._reg: Optional[Registry] = None
        self._own_reg = False
        try:
            s = _P(_Store)()
            if store is None:
                check(_store_memory(ctypes.byref(s)))
                self._store = s
            else:
                check(_store_sqlite(ctypes.byref(s), path_arg(store), _create))
                self._store = s
                if registry is not False:
                    if registry is None:
                        registry = Registry()
                        self._own_reg = True
                    self._reg = registry
                    check(_store_set_registry(s, registry._use(), inbuf(self.public_key),
                                              len(self.public_key), path_arg(store)))
        except BaseException:
            self.close()
            raise

    @classmethod
    def create(cls, config: Optional[Config] = None,
               store: "os.PathLike[str] | str | None" = None,
               registry: "Registry | None | bool" = None) -> "Manager":
        """A new group: a fresh manager key pair and a new store."""
        config = config or Config()
        if store is not None and os.path.exists(store):
            raise FileExistsError("the store %s exists already" % os.fspath(store))
        pk = outbuf(config.public_key_size)
        sk = SecretBuffer(config.secret_key_size)
        try:
            check(_keygen_manager(ctypes.byref(config._c), pk, sk.ptr))
            return cls(config, bytes(pk)[: config.public_key_size], sk.bytes(), store,
                       registry, _create=True)
        finally:
            sk.wipe()

    @property
    def secret_key(self) -> bytes:
        """A copy of the manager secret key (keep it safe; this package wipes its own copy)."""
        return self._sk.bytes()

    def _s(self) -> Any:
        if not self._store:
            raise ValueError("the manager is closed")
        return self._store

    def _check(self, st: int) -> None:
        if st != 0:
            e = _store_error(self._s()) if self._store else None
            check(st, e.decode("utf-8", "replace") if e else "")

    def join(self, username: str) -> Tuple[int, bytes]:
        """Admit a member: ``(member id, credential cid*)``; grove.ExistsError for a taken name."""
        cid = outbuf(self.config.n)
        i = c_u64(0)
        self._check(_join(ctypes.byref(self.config._c), self._s(), ctypes.byref(i), cid,
                          cstr(username, "username"), self._sk.ptr))
        return i.value, bytes(cid)[: self.config.n]

    def certify(self, member_id: int, cid: BytesLike, wots_public_keys: BytesLike,
                threads: int = 0) -> bytes:
        """Certificates (count * certificate_size bytes) for a member's one-time keys (the
        concatenation a :meth:`Wallet.request` returned); grove.DeniedError for a wrong
        credential, grove.RevokedError for a revoked member."""
        n = self.config.n
        c = secret_in(cid, "cid", n)
        keys = as_bytes(wots_public_keys, "wots_public_keys")
        if not keys or len(keys) % n:
            raise ValueError("wots_public_keys must be a non-empty multiple of %d bytes" % n)
        count = len(keys) // n
        certs = outbuf(count * self.config.certificate_size)
        try:
            self._check(_gen_cert(ctypes.byref(self.config._c), self._s(), certs, inbuf(keys),
                                  count, member_id, c.ptr, self._sk.ptr, threads))
        finally:
            c.wipe()
        return bytes(certs)[: count * self.config.certificate_size]

    def open(self, signature: BytesLike, message: BytesLike) -> Tuple[int, str, bytes]:
        """Who signed: ``(member id, username, proof pi)``; anyone can check the proof with
        :meth:`Verifier.judge`. grove.VerifyError if the signature does not verify."""
        sig = as_bytes(signature, "signature")
        msg = as_bytes(message, "message")
        i = c_u64(0)
        name = ctypes.create_string_buffer(256)
        pi = outbuf(self.config.n)
        self._check(_open(ctypes.byref(self.config._c), self._s(), ctypes.byref(i), name, pi,
                          inbuf(sig), len(sig), inbuf(msg), len(msg), self._sk.ptr))
        return i.value, name.value.decode("utf-8"), bytes(pi)[: self.config.n]

    def revoke(self, member_ids: Iterable[int]) -> int:
        """Revoke members (all or nothing); returns the number newly revoked."""
        ids = list(member_ids)
        arr = (c_u64 * max(len(ids), 1))(*ids)
        n = c_size(0)
        self._check(_revoke(ctypes.byref(self.config._c), self._s(), ctypes.byref(n), arr,
                            len(ids), self._sk.ptr))
        return n.value

    def revocation_list(self, seq: int, time: int) -> bytes:
        """The signed revocation list (number ``seq``, timestamp ``time``) to publish."""
        zetas = _store_list_revoked(self._s())
        count = len(zetas) // 16
        cap = _rl_bytes(ctypes.byref(self.config._c), count)
        out = outbuf(cap)
        n = c_size(0)
        check(_rl_sign(ctypes.byref(self.config._c), out, cap, ctypes.byref(n), seq, time,
                       inbuf(zetas), count, self._sk.ptr))
        return bytes(out)[: n.value]

    def close(self) -> None:
        """Close the store and wipe the manager key from memory."""
        if self._store:
            _store_close(self._store)
            self._store = None
        if getattr(self, "_sk", None) is not None:
            self._sk.wipe()
        if self._reg is not None:
            self._reg._release()
            if self._own_reg:
                self._reg.close()
        self._reg = None



class Wallet(Closable):
    """A member's wallet (an SQLite file, or memory): credential, one-time keys, certificates.

    ``Wallet.create(config, path, member_id, cid, group_public_key)`` makes a new wallet file
    (``path`` None: in memory); ``Wallet(path)`` opens one. With a file wallet the state registry
    is attached (``registry`` as in :class:`grove.XMSSKey`): an older copy of the wallet that
    would sign with a used certificate is refused with grove.StateError.
    """

    def __init__(self, path: "os.PathLike[str] | str",
                 registry: "Registry | None | bool" = None) -> None:
        self._w: Any = None
        self._reg: Optional[Registry] = None
        self._own_reg = False
        w = _vp()
        check(_w_open(ctypes.byref(w), path_arg(path)))
        self._w = w
        self._attach(registry)

    def _attach(self, registry: "Registry | None | bool") -> None:
        if registry is False:
            return
        try:
            if registry is None:
                registry = Registry()
                self._own_reg = True
            self._reg = registry
            self._check(_w_set_registry(self._w, registry._use()))
        except BaseException:
            self.close()
            raise

    @classmethod
    def create(cls, config: Config, path: "os.PathLike[str] | str | None", member_id: int,
               cid: BytesLike, group_public_key: Optional[BytesLike] = None,
               registry: "Registry | None | bool" = None) -> "Wallet":
        """A new wallet with a fresh member seed (kept inside the library)."""
        c = secret_in(cid, "cid", config.n)
        self = cls.__new__(cls)
        self._w, self._reg, self._own_reg = None, None, False
        w = _vp()
        try:
            if path is None:
                check(_w_memory(ctypes.byref(config._c), ctypes.byref(w), None, member_id,
                                c.ptr))
                self._w = w
                return self
            pk = config._pk(group_public_key) if group_public_key is not None else None
            check(_w_create(ctypes.byref(config._c), ctypes.byref(w), path_arg(path), None,
                            member_id, c.ptr, inbuf(pk) if pk is not None else None))
            self._w = w
        finally:
            c.wipe()
        self._attach(registry)
        return self

    def _h(self) -> Any:
        if not self._w:
            raise ValueError("the wallet is closed")
        return self._w

    def _check(self, st: int) -> None:
        if st != 0:
            e = _w_last_error(self._w) if self._w else None
            check(st, e.decode("utf-8", "replace") if e else "")

    @property
    def config(self) -> Config:
        return Config._from_c(_w_cfg(self._h()).contents)

    @property
    def member_id(self) -> int:
        return int(_w_id(self._h()))

    @property
    def available(self) -> int:
        """Certificates ready to sign with."""
        return int(_w_available(self._h()))

    def request(self, count: int) -> bytes:
        """A certificate request: fresh one-time keys (kept pending in the wallet); returns their
        public keys (count * N bytes) for :meth:`Manager.certify`."""
        if not isinstance(count, int) or count <= 0 or count > 1 << 20:
            raise ValueError("count must be an int in [1, 2^20]")
        n = self.config.n
        out = outbuf(count * n)
        self._check(_w_csr(self._h(), out, count))
        return bytes(out)[: count * n]

    def add_certificates(self, certificates: BytesLike, wots_public_keys: BytesLike,
                         group_public_key: BytesLike) -> None:
        """Import the manager's certificates for pending keys (all or nothing; each is checked
        against the group public key: grove.VerifyError otherwise)."""
        cfg = self.config
        certs = as_bytes(certificates, "certificates")
        keys = as_bytes(wots_public_keys, "wots_public_keys")
        pk = cfg._pk(group_public_key)
        if not keys or len(keys) % cfg.n or len(certs) != len(keys) // cfg.n * cfg.certificate_size:
            raise ValueError("certificates and keys do not match in number or length")
        self._check(_w_import(self._h(), inbuf(certs), inbuf(keys), len(keys) // cfg.n,
                              inbuf(pk)))

    def sign(self, message: BytesLike) -> bytes:
        """A group signature with the next certificate (marked used durably first);
        grove.ExhaustedError when none is left."""
        msg = as_bytes(message, "message")
        n = self.config.signature_size
        sig = outbuf(n)
        self._check(_w_sign(self._h(), sig, inbuf(msg), len(msg)))
        return bytes(sig)[:n]

    def close(self) -> None:
        """Close the wallet, wiping its secrets."""
        if self._w:
            _w_close(self._w)
            self._w = None
        if self._reg is not None:
            self._reg._release()
            if self._own_reg:
                self._reg.close()
        self._reg = None



class Verifier(Closable):
    """Anyone: the group public key and (optionally) the manager's signed revocation list, which
    is checked at once (grove.VerifyError if it is not the manager's)."""

    def __init__(self, config: Config, group_public_key: BytesLike,
                 revocations: Optional[BytesLike] = None) -> None:
        self.config = config
        self.public_key = config._pk(group_public_key)
        self._store: Any = None
        self._closed = False
        self.revocations_seq: Optional[int] = None
        self.revoked_count = 0
        if revocations is not None:
            rl = as_bytes(revocations, "revocations")
            seq, tm, cnt = c_u64(0), c_u64(0), c_u64(0)
            z = c_u8p()
            check(_rl_verify(ctypes.byref(config._c), ctypes.byref(seq), ctypes.byref(tm),
                             ctypes.byref(z), ctypes.byref(cnt), inbuf(rl), len(rl),
                             inbuf(self.public_key)))
            zetas = ctypes.string_at(z, 16 * cnt.value) if cnt.value else b""
            s = _P(_Store)()
            check(_store_memory(ctypes.byref(s)))
            self._store = s
            if zetas:
                _store_add_revoked(s, zetas)
            self.revocations_seq = seq.value
            self.revocations_time = tm.value
            self.revoked_count = cnt.value

    def status(self, signature: BytesLike, message: BytesLike) -> str:
        """"valid", "revoked" (valid, but its certificate is in the revocation list) or
        "invalid"."""
        if self._closed:
            raise ValueError("the verifier is closed")
        sig = as_bytes(signature, "signature")
        msg = as_bytes(message, "message")
        st = _verify(ctypes.byref(self.config._c), inbuf(sig), len(sig), inbuf(msg), len(msg),
                     inbuf(self.public_key), self._store if self._store else None)
        if st == 0:
            return "valid"
        if st == REVOKED:
            return "revoked"
        if st == VERIFY:
            return "invalid"
        check(st)
        return "invalid"  # pragma: no cover

    def verify(self, signature: BytesLike, message: BytesLike) -> bool:
        """True if the signature is valid and not revoked."""
        return self.status(signature, message) == "valid"

    def judge(self, signature: BytesLike, message: BytesLike, member_id: int,
              proof: BytesLike) -> bool:
        """True if the manager's opening (member id, proof pi) of the signature is correct."""
        sig = as_bytes(signature, "signature")
        msg = as_bytes(message, "message")
        pi = as_bytes(proof, "proof")
        if len(pi) != self.config.n:
            raise ValueError("a proof is %d bytes" % self.config.n)
        st = _judge(ctypes.byref(self.config._c), inbuf(sig), len(sig), inbuf(msg), len(msg),
                    member_id, inbuf(pi))
        if st == VERIFY:
            return False
        check(st)
        return True

    def close(self) -> None:
        self._closed = True
        if self._store:
            _store_close(self._store)
            self._store = None



# ---- grove's DGSP files (what `grove dgsp` reads and writes) -------------------------------------

class _FileInfo(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("version", ctypes.c_uint), ("old_format", ctypes.c_bool),
                ("form", ctypes.c_int), ("has_key_id", ctypes.c_bool),
                ("key_id", ctypes.c_uint8 * 8)]


FILE_TYPES = ["PUBLIC KEY", "SECRET KEY", "CREDENTIAL", "CSR", "CERTIFICATES", "SIGNATURE",
              "REVOCATIONS", "PROOF"]
_file_max_text = fn("grove_dgsp_file_max_text", c_size, _P(_Cfg), ctypes.c_int, c_size)
_file_encode = fn("grove_dgsp_file_encode", c_status, _P(_Cfg), c_u8p, c_size, _P(c_size),
                  ctypes.c_int, c_u8p, c_size, c_u8p, ctypes.c_int)
_file_decode = fn("grove_dgsp_file_decode", c_status, _P(_Cfg), _P(_FileInfo), c_u8p, c_size,
                  _P(c_size), c_u8p, c_size, ctypes.c_int, ctypes.c_char_p, c_size)


def _file_type(type: str) -> int:
    if type not in FILE_TYPES:
        raise ValueError("unknown DGSP file type %r (one of %s)" % (type, ", ".join(FILE_TYPES)))
    return FILE_TYPES.index(type)


def encode_file(config: Config, type: str, body: BytesLike,
                group_public_key: Optional[BytesLike] = None, *, armored: bool = True) -> bytes:
    """A DGSP file as ``grove dgsp`` writes it (scheme "DGSP", set "<params>/<flavour>/<profile>",
    the group's key id when ``group_public_key`` is given). Bodies: docs/formats.md (PUBLIC KEY:
    the manager public key, SIGNATURE: a signature, REVOCATIONS: a signed list, ...)."""
    t = _file_type(type)
    secret = type == "SECRET KEY"
    b: Any = secret_in(body, "body") if secret else as_bytes(body, "body")
    pk = config._pk(group_public_key) if group_public_key is not None else None
    n = b.size if secret else len(b)
    cap = _file_max_text(ctypes.byref(config._c), t, n) + 256
    out = SecretBuffer(cap)
    ln = c_size(0)
    try:
        check(_file_encode(ctypes.byref(config._c), out.ptr, cap, ctypes.byref(ln), t,
                           b.ptr if secret else inbuf(b), n,
                           inbuf(pk) if pk is not None else None, 1 if armored else 0))
        return out.bytes()[: ln.value]
    finally:
        out.wipe()
        if secret:
            b.wipe()


def decode_file(data: BytesLike, type: Optional[str] = None) -> Tuple[Config, str, bytes]:
    """Check and read a DGSP file: ``(config, type, body)``; ``type`` (if given) must match.
    grove.EncodingError (with the library's sentence) for anything else."""
    d = as_bytes(data, "data")
    t = _file_type(type) if type is not None else len(FILE_TYPES)
    cfg = _Cfg()
    info = _FileInfo()
    body = SecretBuffer(len(d))
    ln = c_size(0)
    err = ctypes.create_string_buffer(256)
    try:
        check(_file_decode(ctypes.byref(cfg), ctypes.byref(info), body.ptr, len(d),
                           ctypes.byref(ln), inbuf(d), len(d), t, err, 256),
              err.value.decode("utf-8", "replace"))
        return Config._from_c(cfg), FILE_TYPES[info.type], body.bytes()[: ln.value]
    finally:
        body.wipe()

# SPDX-License-Identifier: MIT OR Apache-2.0
"""Loading libgrove, the exception hierarchy and small helpers shared by the modules.

The library is found through ``GROVE_LIBRARY`` (a path to ``libgrove.so``) or else through the
system loader (``libgrove.so``, then :func:`ctypes.util.find_library`).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
from typing import Any, Callable, Dict, Optional, Type, TypeVar, Union

BytesLike = Union[bytes, bytearray, memoryview]

c_u8p = ctypes.POINTER(ctypes.c_uint8)
c_size = ctypes.c_size_t
c_u64 = ctypes.c_uint64
c_status = ctypes.c_int


def _load() -> ctypes.CDLL:
    path = os.environ.get("GROVE_LIBRARY")
    if path:
        return ctypes.CDLL(path)
    errors = []
    for name in ("libgrove.so", ctypes.util.find_library("grove")):
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("grove: libgrove not found; install it or set GROVE_LIBRARY to the path "
                      "of libgrove.so (" + "; ".join(errors) + ")")


lib = _load()


def fn(name: str, restype: Any, *argtypes: Any) -> Optional[Callable[..., Any]]:
    """Declare a library function (None if this build of libgrove lacks it)."""
    f = getattr(lib, name, None)
    if f is None:
        return None
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_strerror = fn("grove_strerror", ctypes.c_char_p, c_status)
_status_name = fn("grove_status_name", ctypes.c_char_p, c_status)
_wipe = fn("grove_wipe", None, ctypes.c_void_p, c_size)
_version = fn("grove_version", ctypes.c_char_p)


# ---- errors ------------------------------------------------------------------------------------

class GroveError(Exception):
    """A libgrove failure: ``status`` is the grove_status code, ``name`` its short name, the
    message the library's description (plus any sentence the library gave about the case)."""

    status: int = 0

    def __init__(self, status: int, detail: str = "") -> None:
        self.status = status
        self.name = _status_name(status).decode()
        msg = _strerror(status).decode()
        self.detail = detail
        super().__init__(msg + (": " + detail if detail else ""))


class InvalidArgumentError(GroveError, ValueError):
    """GROVE_ERR_INVALID_ARG: a value out of range."""


class BufferTooSmallError(GroveError):
    """GROVE_ERR_BUFFER_TOO_SMALL (a bug in this package if it ever escapes)."""


class EncodingError(GroveError, ValueError):
    """GROVE_ERR_ENCODING: an input object (key, file, encoding) malformed or of a wrong length."""


class VerifyError(GroveError):
    """GROVE_ERR_VERIFY: a signature, certificate, proof or list that does not verify."""


class RevokedError(VerifyError):
    """GROVE_ERR_REVOKED: a valid signature whose signer (certificate) is revoked."""


class NotFoundError(GroveError, LookupError):
    """GROVE_ERR_NOT_FOUND: no such member, key or entry."""


class ExistsError(GroveError):
    """GROVE_ERR_EXISTS: the entry (or file) already exists."""


class ExhaustedError(GroveError):
    """GROVE_ERR_EXHAUSTED: a one-time or stateful key has no signature left."""


class StorageError(GroveError):
    """GROVE_ERR_STORAGE: the storage backend (or a state persistence) failed."""


class RandomnessError(GroveError):
    """GROVE_ERR_RNG: the system random generator failed."""


class UnsupportedError(GroveError):
    """GROVE_ERR_UNSUPPORTED: an unknown or unsupported parameter set or option."""


class InsecureProfileError(GroveError):
    """GROVE_ERR_INSECURE_PROFILE: refused, the operation is unsafe in this profile."""


class InternalError(GroveError):
    """GROVE_ERR_INTERNAL: an internal invariant failed (a bug)."""


class OutOfMemoryError(GroveError, MemoryError):
    """GROVE_ERR_NOMEM: memory allocation failed."""


class StateError(GroveError):
    """GROVE_ERR_STATE: stateful-key state missing, stale (a copy, a restored backup) or
    inconsistent."""


class GroveIOError(GroveError, OSError):
    """GROVE_ERR_IO: reading or writing a file failed."""


class DeniedError(GroveError):
    """GROVE_ERR_DENIED: request refused (bad credential, inactive member)."""


class GroveOverflowError(GroveError, OverflowError):
    """GROVE_ERR_OVERFLOW: a counter or size would overflow."""


class LotteryLostError(GroveError):
    """GROVE_ERR_LOTTERY_LOST: (STM) the signer won no lottery."""


class NotEnoughError(GroveError):
    """GROVE_ERR_NOT_ENOUGH: (STM) not enough signatures to aggregate."""


ERRORS: Dict[int, Type[GroveError]] = {
    -1: InvalidArgumentError, -2: BufferTooSmallError, -3: EncodingError, -4: VerifyError,
    -5: RevokedError, -6: NotFoundError, -7: ExistsError, -8: ExhaustedError, -9: StorageError,
    -10: RandomnessError, -11: UnsupportedError, -12: InsecureProfileError, -13: InternalError,
    -14: OutOfMemoryError, -15: StateError, -16: GroveIOError, -17: DeniedError,
    -18: GroveOverflowError, -19: LotteryLostError, -20: NotEnoughError,
}


def error(status: int, detail: str = "") -> GroveError:
    """The exception of a grove_status."""
    return ERRORS.get(status, GroveError)(status, detail)


def check(status: int, detail: str = "") -> None:
    """Raise the exception of status unless it is GROVE_OK."""
    if status != 0:
        raise error(status, detail)


def errbuf_text(buf: Any) -> str:
    return buf.value.decode("utf-8", "replace") if buf is not None else ""


# ---- secrets and arguments ----------------------------------------------------------------

def wipe_ctypes(buf: Any) -> None:
    """Overwrite a ctypes buffer with zeros through the library's grove_wipe."""
    if buf is not None:
        _wipe(ctypes.addressof(buf), ctypes.sizeof(buf))


def wipe(data: Union[bytearray, memoryview, Any]) -> None:
    """Overwrite a writable buffer (a bytearray, a writable memoryview, a ctypes buffer) with zeros
    through the library's grove_wipe. Use it on secret keys you hold as bytearray."""
    if isinstance(data, ctypes.Array):
        wipe_ctypes(data)
        return
    mv = memoryview(data)
    if mv.readonly:
        raise TypeError("wipe needs a writable buffer (bytearray), not " + type(data).__name__)
    n = mv.nbytes
    if n:
        arr = (ctypes.c_char * n).from_buffer(mv.cast("B"))
        _wipe(ctypes.addressof(arr), n)
        del arr
    mv.release()


class Closable:
    """Context manager and finalizer around ``close()``, which every subclass defines and which
    must be safe to call twice: ``with X(...) as x:`` closes x at the end of the block, and an
    object dropped without ``close()`` is closed when collected."""

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def __enter__(self: "_C") -> "_C":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - depends on the collector
        try:
            self.close()
        except Exception:
            pass


_C = TypeVar("_C", bound=Closable)


class SecretBuffer:
    """A ctypes buffer holding a secret, wiped with grove_wipe when closed or collected."""

    __slots__ = ("_buf", "size")

    def __init__(self, size: int, data: Optional[BytesLike] = None) -> None:
        self.size = size
        self._buf: Any = (ctypes.c_uint8 * max(size, 1))()
        if data is not None:
            mv = memoryview(data).cast("B")
            if mv.nbytes != size:
                raise ValueError("secret of %d bytes expected, got %d" % (size, mv.nbytes))
            if size:
                if isinstance(data, bytes):
                    ctypes.memmove(self._buf, data, size)
                elif not mv.readonly:
                    src = (ctypes.c_char * size).from_buffer(mv)
                    ctypes.memmove(self._buf, src, size)
                    del src
                else:
                    ctypes.memmove(self._buf, mv.tobytes(), size)
            mv.release()

    @property
    def ptr(self) -> Any:
        if self._buf is None:
            raise ValueError("this secret has been wiped (the object was closed)")
        return ctypes.cast(self._buf, c_u8p)

    def bytes(self) -> bytes:
        if self._buf is None:
            raise ValueError("this secret has been wiped (the object was closed)")
        return bytes(self._buf)[: self.size]

    def wipe(self) -> None:
        if self._buf is not None:
            wipe_ctypes(self._buf)
            self._buf = None

    def __del__(self) -> None:  # pragma: no cover - depends on the collector
        try:
            self.wipe()
        except Exception:
            pass


def as_bytes(value: Any, what: str) -> bytes:
    """A bytes-like argument as bytes (TypeError for anything else, str included)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise TypeError("%s must be bytes-like (bytes, bytearray, memoryview), not %s"
                    % (what, type(value).__name__))


def secret_in(value: Any, what: str, size: Optional[int] = None) -> SecretBuffer:
    """Copy a secret bytes-like argument into a SecretBuffer (checked length)."""
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError("%s must be bytes-like (bytes, bytearray, memoryview), not %s"
                        % (what, type(value).__name__))
    n = memoryview(value).nbytes
    if size is not None and n != size:
        raise ValueError("%s must be %d bytes, got %d" % (what, size, n))
    return SecretBuffer(n, value)


def inbuf(data: bytes) -> Any:
    """A const uint8_t* view of bytes (NULL-safe for empty input)."""
    return ctypes.cast(ctypes.c_char_p(data), c_u8p)


def outbuf(n: int) -> Any:
    return (ctypes.c_uint8 * max(n, 1))()


def cstr(s: str, what: str) -> bytes:
    if not isinstance(s, str):
        raise TypeError("%s must be str, not %s" % (what, type(s).__name__))
    b = s.encode("utf-8")
    if b"\0" in b:
        raise ValueError("%s must not contain NUL" % what)
    return b


def path_arg(p: Any, what: str = "path") -> bytes:
    if isinstance(p, (str, os.PathLike)):
        return cstr(os.fspath(p), what) if isinstance(os.fspath(p), str) else os.fspath(p)
    raise TypeError("%s must be str or os.PathLike, not %s" % (what, type(p).__name__))


def version() -> str:
    """The libgrove version string, e.g. "0.1.0"."""
    return _version().decode()

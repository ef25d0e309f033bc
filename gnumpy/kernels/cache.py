"""Kernel caches: in memory (structural key -> loaded kernel) and on disk (digest -> cubin).

The disk cache lives under ``config.cache_dir`` (``GNUMPY_CACHE_DIR``).  Entries are
written atomically (temp file + rename, safe across processes) and the directory is kept
under ``config.disk_cache_max_bytes`` by evicting least recently used entries.

The directory is trusted only as far as it is checked:

* it is created 0700 and used only when it is this user's and no one else can write to it
  (otherwise the disk cache is off for the process, with one warning);
* every entry carries an HMAC-SHA256 of its name and payload under a per-user secret kept
  in the directory (``key``, 0600): a corrupt, truncated or forged entry (one written
  without the secret) is detected and recompiled, never loaded;
* entries are opened without following symbolic links and read only when they are regular
  files, and the read is bounded by the length their header states (a FIFO or a link to
  ``/dev/zero`` at an entry's path is skipped, not waited on);
* temporary files left by a process that died mid-write are removed when older than an
  hour.

The NVRTC version (part of every disk key) is remembered in the cache directory, so a
process whose kernels all hit the disk cache never loads NVRTC (loading it costs 5-20 ms,
most of a warm first call).  Every compile (a miss) reads the real version and updates the
remembered one.
# Note: after an NVRTC upgrade, processes keep hitting the entries compiled by the previous
# version until the first miss anywhere records the new version; cubins for the same arch
# stay loadable, so this only delays picking up the new compiler's code.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import stat
import struct
import tempfile
import time
import warnings

from .._config import config

_MAGIC = b"GNCUBIN2"        # magic, payload length (u64), HMAC-SHA256, payload
_HEADER = 48
_STALE_TMP_SECONDS = 3600


class Counters:
    __slots__ = ("memory_hits", "disk_hits", "misses", "compile_seconds", "corrupt",
                 "evicted", "last_compile_seconds", "last_disk_load_seconds")

    def __init__(self):
        self.reset()

    def reset(self):
        self.memory_hits = 0
        self.disk_hits = 0
        self.misses = 0
        self.compile_seconds = 0.0
        self.last_compile_seconds = 0.0
        self.last_disk_load_seconds = 0.0
        self.corrupt = 0
        self.evicted = 0

    def as_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}


counters = Counters()
_nvrtc = {}


def known_nvrtc_version(probe) -> tuple:
    """The NVRTC version for disk keys: remembered in the cache directory when possible,
    else `probe()` (which loads NVRTC)."""
    v = _nvrtc.get(config.cache_dir)
    if v is not None:
        return v
    d, _ = _usable()
    if d is not None:
        try:
            raw = _read_regular(os.path.join(d, "nvrtc-version"), 64)
            v = tuple(int(t) for t in raw.decode().split(".")) if raw else None
        except (UnicodeDecodeError, ValueError):
            v = None
    if not v:
        v = tuple(probe())
        remember_nvrtc_version(v)
    _nvrtc[config.cache_dir] = v
    return v


def remember_nvrtc_version(v) -> bool:
    """Record the real NVRTC version; True when it differs from the one in use."""
    v = tuple(v)
    changed = _nvrtc.get(config.cache_dir) not in (None, v)
    _nvrtc[config.cache_dir] = v
    if config.disk_cache:
        d, _ = _usable()
        if d is None:
            return changed
        try:
            fd, tmp = tempfile.mkstemp(dir=d, prefix=".nvrtc-")
            with os.fdopen(fd, "w") as f:
                f.write(".".join(str(t) for t in v))
            os.replace(tmp, os.path.join(d, "nvrtc-version"))
        except OSError:
            pass
    return changed


_trusted: dict = {}      # kernels directory -> (usable, secret)


def _dir() -> str:
    d = os.path.join(config.cache_dir, "kernels")
    if d not in _trusted:
        _trusted[d] = _open_dir(d)
    return d


def _open_dir(d: str):
    """(usable, secret) of the kernels directory `d`, created 0700 when missing."""
    try:
        os.makedirs(os.path.dirname(d), mode=0o700, exist_ok=True)
        os.makedirs(d, mode=0o700, exist_ok=True)
        st = os.stat(d, follow_symlinks=False)
    except OSError as e:
        return False, _warn(d, f"it cannot be created ({e})")
    if not stat.S_ISDIR(st.st_mode):
        return False, _warn(d, "it is not a directory")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False, _warn(d, "it belongs to another user")
    if st.st_mode & 0o022:
        return False, _warn(d, "others can write to it (chmod go-w to use it)")
    secret = _secret(d)
    if secret is None:
        return False, _warn(d, "its key file cannot be read or created")
    _remove_stale_temps(d)
    return True, secret


def _warn(d: str, why: str):
    warnings.warn(f"gnumpy: not using the kernel cache directory {d}: {why}; kernels are "
                  f"compiled in this process only", RuntimeWarning, stacklevel=3)
    return None


def _secret(d: str):
    """The per-user HMAC key in `d` (32 random bytes, created 0600 on first use).  It is
    written to a temporary file and linked into place, so a process racing another never
    reads a half-written key."""
    path = os.path.join(d, "key")
    for _ in range(2):
        blob = _read_regular(path, 33)
        if blob is not None:
            return blob if len(blob) == 32 else None
        try:
            fd, tmp = tempfile.mkstemp(dir=d, prefix=".key-")
        except OSError:
            return None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(32))
            os.link(tmp, path)              # fails if another process got there first
        except FileExistsError:
            pass
        except OSError:
            return None
        finally:
            _remove(tmp)
    return None


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def _read_regular(path: str, limit: int):
    """Up to `limit` bytes of the regular file at `path`, never following a symbolic link
    nor blocking on a FIFO or device; None when it is missing or not a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], limit
        while left > 0:
            b = os.read(fd, min(left, 1 << 20))
            if not b:
                break
            chunks.append(b)
            left -= len(b)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _mac(secret: bytes, digest: str, payload: bytes) -> bytes:
    return hmac.new(secret, digest.encode() + b"\0" + payload, hashlib.sha256).digest()


def _usable():
    """(kernels directory, secret), or (None, None) when the disk cache is off."""
    if not config.disk_cache:
        return None, None
    d = _dir()
    ok, secret = _trusted[d]
    return (d, secret) if ok else (None, None)


def disk_get(digest: str):
    """The cached payload for `digest`, or None (missing, disabled, corrupt or forged)."""
    d, secret = _usable()
    if d is None:
        return None
    path = os.path.join(d, digest + ".cubin")
    head = _read_regular(path, _HEADER)
    if head is None:
        return None
    if len(head) < _HEADER or head[:8] != _MAGIC:
        return _reject(path)
    (n,) = struct.unpack("<Q", head[8:16])
    if n > config.disk_cache_max_bytes:
        return _reject(path)
    blob = _read_regular(path, _HEADER + n + 1)
    if blob is None or len(blob) != _HEADER + n:
        return _reject(path)
    payload = blob[_HEADER:]
    if not hmac.compare_digest(blob[16:48], _mac(secret, digest, payload)):
        return _reject(path)
    try:
        os.utime(path, follow_symlinks=False)       # mark as recently used
    except (OSError, NotImplementedError):
        pass
    return payload


def _reject(path: str):
    counters.corrupt += 1
    _remove(path)
    return None


def disk_put(digest: str, cubin: bytes) -> None:
    d, secret = _usable()
    if d is None:
        return
    blob = _MAGIC + struct.pack("<Q", len(cubin)) + _mac(secret, digest, cubin) + cubin
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=".cubin")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, os.path.join(d, digest + ".cubin"))
    except OSError:
        _remove(tmp)
        return
    # the directory is scanned only when the running estimate passes the bound (a scan per
    # write made thousands of compiles quadratic)
    if _estimate[0] is None or _estimate[1] != d:
        _estimate[:] = [_scan_total(d), d]
    else:
        _estimate[0] += len(blob)
    if _estimate[0] > config.disk_cache_max_bytes:
        _estimate[0] = _evict(d)


def _remove_stale_temps(d: str) -> None:
    """Remove temporary files a process left behind (it died between write and rename)."""
    cutoff = time.time() - _STALE_TMP_SECONDS
    try:
        for e in os.scandir(d):
            if (e.name.startswith((".tmp-", ".nvrtc-", ".key-"))
                    and e.stat(follow_symlinks=False).st_mtime < cutoff):
                _remove(e.path)
    except OSError:
        pass


_estimate = [None, None]     # [approximate bytes in the cache directory, directory]


def _entries(d: str):
    try:
        out = []
        for e in os.scandir(d):
            if e.name.endswith(".cubin") and not e.name.startswith(".tmp-"):
                st = e.stat(follow_symlinks=False)
                out.append((st.st_mtime, st.st_size, e.path))
        return out
    except OSError:
        return []


def _scan_total(d: str) -> int:
    return sum(s for _, s, _ in _entries(d))


def _evict(d: str) -> int:
    """Remove least recently used entries until the directory fits; returns its size."""
    limit = config.disk_cache_max_bytes
    entries = _entries(d)
    total = sum(s for _, s, _ in entries)
    if total <= limit:
        return total
    for _, size, path in sorted(entries):
        _remove(path)
        counters.evicted += 1
        total -= size
        if total <= limit:
            break
    return total


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def clear_disk() -> None:
    """Remove every cached entry (the directory's key stays)."""
    d, _ = _usable()
    if d is None:
        return
    for e in os.scandir(d):
        if e.name != "key":
            _remove(e.path)

"""Kernel caches: in memory (structural key -> loaded kernel) and on disk (digest -> cubin).

The disk cache lives under ``config.cache_dir`` (``GNUMPY_CACHE_DIR``).  Entries are
written atomically (temp file + rename, safe across processes), carry a checksum so a
corrupt or truncated file is detected and recompiled, and the directory is kept under
``config.disk_cache_max_bytes`` by evicting least recently used entries.

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
import os
import struct
import tempfile

from .._config import config

_MAGIC = b"GNCUBIN1"


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
    if config.disk_cache:
        try:
            with open(os.path.join(_dir(), "nvrtc-version")) as f:
                v = tuple(int(t) for t in f.read().split("."))
        except (OSError, ValueError):
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
        try:
            d = _dir()
            fd, tmp = tempfile.mkstemp(dir=d, prefix=".nvrtc-")
            with os.fdopen(fd, "w") as f:
                f.write(".".join(str(t) for t in v))
            os.replace(tmp, os.path.join(d, "nvrtc-version"))
        except OSError:
            pass
    return changed


def _dir() -> str:
    d = os.path.join(config.cache_dir, "kernels")
    os.makedirs(d, exist_ok=True)
    return d


def disk_get(digest: str):
    """The cached cubin for `digest`, or None (missing, disabled or corrupt)."""
    if not config.disk_cache:
        return None
    path = os.path.join(_dir(), digest + ".cubin")
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError:
        return None
    if len(blob) < 48 or blob[:8] != _MAGIC:
        counters.corrupt += 1
        _remove(path)
        return None
    (n,) = struct.unpack("<Q", blob[8:16])
    payload = blob[48:]
    if len(payload) != n or hashlib.sha256(payload).digest() != blob[16:48]:
        counters.corrupt += 1
        _remove(path)
        return None
    try:
        os.utime(path)          # mark as recently used
    except OSError:
        pass
    return payload


def disk_put(digest: str, cubin: bytes) -> None:
    if not config.disk_cache:
        return
    d = _dir()
    blob = _MAGIC + struct.pack("<Q", len(cubin)) + hashlib.sha256(cubin).digest() + cubin
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


_estimate = [None, None]     # [approximate bytes in the cache directory, directory]


def _entries(d: str):
    try:
        return [(e.stat().st_mtime, e.stat().st_size, e.path) for e in os.scandir(d)
                if e.name.endswith(".cubin") and not e.name.startswith(".tmp-")]
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
    d = _dir()
    for e in os.scandir(d):
        _remove(e.path)

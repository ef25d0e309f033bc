"""Devices: which backend an array lives on, and the default device.

A ``Device`` is 'cpu' or 'cuda:N'.  CUDA is the default when a GPU and driver are usable,
CPU otherwise; ``GNUMPY_DEVICE`` (``gnumpy.config.device``) forces one.  Backends are
created lazily, one per device, by ``backend(device)``.
"""
from __future__ import annotations

import threading

from ._config import config


class Device:
    """An Array API device object: ``Device('cpu')`` or ``Device('cuda', 0)``.

    Examples
    --------
    >>> Device("cuda:1")
    Device('cuda:1')
    """

    __slots__ = ("kind", "id", "_hash", "_be")

    def __new__(cls, kind="cpu", id=None):
        """The one object of each device: every array of a device holds the same object,
        so the hot paths compare devices by identity and read the backend it caches
        (``_be``); a second object of one device would make them take their slow paths."""
        if isinstance(kind, Device):
            return kind
        if isinstance(kind, str) and ":" in kind:
            kind, _, num = kind.partition(":")
            id = int(num)
        if kind not in ("cpu", "cuda"):
            raise ValueError(f"unknown device {kind!r}: expected 'cpu' or 'cuda[:N]'")
        key = (kind, 0 if id is None else int(id))
        d = _DEVICES.get(key)
        if d is None:
            d = object.__new__(cls)
            d.kind, d.id = key
            d._hash = hash(key)
            d._be = None          # its backend, once created (see backend())
            d = _DEVICES.setdefault(key, d)     # (threads making one device get one)
        return d

    def __reduce__(self):
        return (Device, (self.kind, self.id))

    def __eq__(self, other):
        if other is self:       # (one object per device: the common case)
            return True
        if isinstance(other, str):
            try:
                other = Device(other)
            except ValueError:
                return False
        return isinstance(other, Device) and other.kind == self.kind and other.id == self.id

    def __hash__(self):
        return self._hash

    def __str__(self):
        return "cpu" if self.kind == "cpu" else f"cuda:{self.id}"

    def __repr__(self):
        return f"Device('{self}')"


_DEVICES: dict = {}     # (kind, id) -> its Device


CPU = Device("cpu")
_backends: dict = {}
_default = None


def cuda_available() -> bool:
    # loaded on first use: import gnumpy does not load cuda_probe
    from .backends import cuda_probe
    return cuda_probe.device_count()[0] > 0


def default_device() -> Device:
    global _default
    if _default is None:
        want = config.device
        if want == "cpu":
            _default = CPU
        elif want.startswith("cuda"):
            _default = Device(want)
            backend(_default)  # fail now, with the reason, if CUDA is unusable
        elif want == "auto":
            _default = Device("cuda", 0) if cuda_available() else CPU
        else:
            raise ValueError(f"GNUMPY_DEVICE must be 'auto', 'cpu' or 'cuda', not {want!r}")
    return _default


def as_device(device) -> Device:
    """Normalize a device argument (None means the default device)."""
    if device is None:
        return default_device()
    if isinstance(device, Device):
        return device
    if isinstance(device, str):
        return Device(device)
    raise ValueError(f"unsupported device {device!r}")


_creating = threading.Lock()

# The last statement's write, deferred by the materialization layer (``realize.write``):
# [0] is (dest, value) or None, [1] the function that runs it (``realize.settle``), stored
# with it.  Whatever uses a backend runs it first, so every kernel, copy, library call and
# host read sees memory as the program wrote it.
deferred = [None, None]


def settle() -> None:
    """Run the deferred write, if one is pending (before anything uses a backend)."""
    if deferred[0] is not None:
        deferred[1]()


def backend(device: Device):
    """The backend object of `device` (created on first use).  A deferred write runs
    first."""
    if deferred[0] is not None:
        settle()
    b = device._be
    if b is not None:
        return b
    with _creating:         # threads meeting a device first make one backend (and import
        b = _backends.get(device)       # cuda.core once: its first import is not
        if b is None:                   # thread-safe)
            # loaded on first use: import gnumpy loads no backend, only the one used
            if device.kind == "cpu":
                from .backends.cpu import CpuBackend
                b = CpuBackend(device)
            else:
                from .backends.cuda import CudaBackend
                b = CudaBackend(device)
            _backends[device] = b
        device._be = b
    return b


def all_devices() -> list:
    devs = [CPU]
    try:
        # loaded on first use: import gnumpy does not load cuda_probe
        from .backends import cuda_probe
        n = cuda_probe.device_count()[0]
    except Exception:
        n = 0
    devs.extend(Device("cuda", i) for i in range(n))
    return devs

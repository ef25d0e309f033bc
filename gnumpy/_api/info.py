"""The Array API inspection namespace: ``__array_namespace_info__()``."""
from __future__ import annotations

from .. import _dtypes as D
from .._device import all_devices, as_device, default_device

_KINDS = {
    None: D.ALL,
    "bool": (D.bool_,),
    "signed integer": D.SIGNED,
    "unsigned integer": D.UNSIGNED,
    "integral": D.SIGNED + D.UNSIGNED,
    "real floating": D.FLOATS,
    "complex floating": D.COMPLEX,
    "numeric": D.SIGNED + D.UNSIGNED + D.FLOATS + D.COMPLEX,
}


class Info:
    """What this namespace supports (Array API inspection utilities)."""

    def capabilities(self):
        return {"boolean indexing": False, "data-dependent shapes": False,
                "max dimensions": 64}

    def default_device(self):
        return default_device()

    def default_dtypes(self, *, device=None):
        if device is not None:
            as_device(device)
        return {"real floating": D.float64, "complex floating": D.complex128,
                "integral": D.int64, "indexing": D.int64}

    def dtypes(self, *, device=None, kind=None):
        if device is not None:
            as_device(device)
        if isinstance(kind, tuple):
            out = {}
            for k in kind:
                out.update(self.dtypes(kind=k))
            return out
        try:
            dts = _KINDS[kind]
        except KeyError:
            raise ValueError(f"unsupported dtype kind {kind!r}") from None
        return {str(d) if d != D.bool_ else "bool": d for d in dts}

    def devices(self):
        return all_devices()


def __array_namespace_info__():
    """The Array API inspection namespace object."""
    return Info()

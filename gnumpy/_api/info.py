"""The Array API inspection namespace: ``__array_namespace_info__()``."""
from __future__ import annotations

from .. import _dtypes as D
from .._device import all_devices, as_device, default_device

# Note: float16 is supported everywhere but is not a canonical Array API dtype, so (like
# NumPy) the inspection namespace does not list it.
_CANONICAL = tuple(d for d in D.ALL if d != D.float16)
_KINDS = {
    None: _CANONICAL,
    "bool": (D.bool_,),
    "signed integer": D.SIGNED,
    "unsigned integer": D.UNSIGNED,
    "integral": D.SIGNED + D.UNSIGNED,
    "real floating": (D.float32, D.float64),
    "complex floating": D.COMPLEX,
    "numeric": D.SIGNED + D.UNSIGNED + (D.float32, D.float64) + D.COMPLEX,
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

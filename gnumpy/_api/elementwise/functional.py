"""Functions applied over axes: ``apply_along_axis`` and ``apply_over_axes``.

``apply_along_axis`` calls a Python function once per 1-D slice, as NumPy (and CuPy) do:
each call runs gnumpy ops on the device, so it suits a moderate number of slices; the
results are stacked once at the end.
"""
from __future__ import annotations

import numpy as np

from .._common import is_array, normalize_axis
from ..shape._views import arr as _arr
from ..creation.creation import asarray
from .elementwise import astype
from ..shape.manipulation import reshape, stack, transpose, expand_dims

__all__ = ["apply_along_axis", "apply_over_axes"]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Apply `func1d` to the 1-D slices of `arr` along `axis`; the result's `axis` is
    replaced by the dimensions of `func1d`'s result (cast to the first result's dtype).

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.apply_along_axis(gp.sum, 1, gp.ones((2, 3))).tolist()
    [3.0, 3.0]
    """
    a = _arr(arr)
    nd = a.ndim
    axis = normalize_axis(axis, nd)
    dims = list(range(nd))
    view = transpose(a, dims[:axis] + dims[axis + 1:] + [axis])
    outer = view.shape[:-1]
    inds = np.ndindex(*outer)
    try:
        first = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") \
            from None
    r0 = func1d(view[first], *args, **kwargs)
    r0 = r0 if is_array(r0) else asarray(r0, device=a.device)
    results = [r0]
    for ind in inds:
        r = func1d(view[ind], *args, **kwargs)
        r = r if is_array(r) else asarray(r, device=a.device)
        if r.shape != r0.shape:
            raise ValueError(f"could not broadcast input array from shape {r.shape} into "
                             f"shape {r0.shape}")
        results.append(astype(r, r0.dtype, copy=False))
    buff = reshape(stack(results), outer + r0.shape)
    bd = list(range(buff.ndim))
    k = buff.ndim - r0.ndim
    return transpose(buff, bd[:axis] + bd[k:] + bd[axis:k])


def apply_over_axes(func, a, axes):
    """Apply ``func(a, axis)`` for each axis in turn; a result with one dimension fewer
    gets it back (size 1), so the result keeps `a`'s number of dimensions.

    Examples
    --------
    >>> import gnumpy as gp
    >>> gp.apply_over_axes(gp.sum, gp.ones((2, 3, 4)), [0, 2]).shape
    (1, 3, 1)
    """
    val = _arr(a)
    n = val.ndim
    if np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val

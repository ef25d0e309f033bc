"""gnumpy.random: random numbers generated on the device (NumPy's ``numpy.random`` API).

``default_rng(seed)`` gives a ``Generator``; the legacy module-level functions (``rand``,
``randn``, ``randint``, ``seed``, ...) and ``RandomState`` are backed by the same
machinery.  Bits come from PCG64, NumPy's default bit generator (``_pcg64``; ``Philox``,
Philox4x32-10, is the other), one barrier kernel per draw (``gnumpy/backends/
random_ops.py``) that computes the words and their transform to floats, normals or
integers together.  On the CPU backend NumPy's own generator makes the words (and NumPy's
``random`` the uniform floats, ``_pcg_host``).
The gamma family, Poisson, binomial, logseries, Zipf and von Mises draw by rejection or
search in rounds (``_rejection``: one device sync per round); hypergeometric by search or
HRUA; the multivariate normal factors its (small) covariance on the host and draws on the
device.  ``Generator.multivariate_hypergeometric`` raises NotImplementedError.

# Note: ``random`` and ``uniform`` give NumPy's numbers for the same seed; the other draws
# use other transforms (see ``_transforms``).  A fixed seed gives the same numbers on every
# run and on both backends: the same bits, hence bit-identical uniform floats and integers;
# transforms through log/cos/sqrt (normal, exponential, ...) agree to a few ulp, as each
# backend uses its own math library.
# Note: the state lives on the host and advances at each call, so a CUDA graph that
# captured a draw replays the same numbers.
# Note: where NumPy returns a scalar (``size=None``), gnumpy returns a 0-d array.

Examples
--------
>>> import gnumpy as gp
>>> rng = gp.random.default_rng(0)
>>> x = rng.standard_normal(1000)
>>> gp.random.seed(1); gp.random.rand(2, 2).shape
(2, 2)
"""
from __future__ import annotations

import numpy as _np

from . import _legacy
from ._generator import Generator, default_rng
from ._legacy import RandomState, get_bit_generator, set_bit_generator
from ._bitgen import BitGenerator
from ._pcg64 import PCG64
from ._philox import Philox

SeedSequence = _np.random.SeedSequence

for _name in _legacy.MODULE_FUNCTIONS:
    globals()[_name] = _legacy._module_function(_name)
ranf = sample = globals()["random_sample"]
del _name

__all__ = ["BitGenerator", "Generator", "PCG64", "Philox", "RandomState", "SeedSequence",
           "default_rng", "get_bit_generator", "set_bit_generator", "ranf", "sample",
           *_legacy.MODULE_FUNCTIONS]


def __dir__():
    return sorted(__all__)

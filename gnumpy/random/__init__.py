"""gnumpy.random: random numbers generated on the device (NumPy's ``numpy.random`` API).

``default_rng(seed)`` gives a ``Generator``; the legacy module-level functions (``rand``,
``randn``, ``randint``, ``seed``, ...) and ``RandomState`` are backed by the same
machinery.  Bits come from Philox4x32-10, a counter-based generator (one barrier kernel
per draw, ``gnumpy/backends/random_ops.py``); the transforms to floats, normals and
integers are ordinary elementwise ops that fuse with the code that uses the numbers.  On
the CPU backend a draw is one lazy barrier that computes the same bits and transform
together, chunk by chunk, in vectorized NumPy (``_host``).
The gamma family, Poisson, binomial, logseries, Zipf and von Mises draw by rejection or
search in rounds (``_rejection``: one device sync per round); hypergeometric by search or
HRUA; the multivariate normal factors its (small) covariance on the host and draws on the
device.  ``Generator.multivariate_hypergeometric`` raises NotImplementedError.

# Note: the streams differ from NumPy's for the same seed (another bit generator and other
# transforms, see ``_transforms``); a fixed seed gives the same numbers on every run and on
# both backends: the same Philox bits, hence bit-identical uniform floats and integers;
# transforms through log/cos/sqrt (normal, exponential, ...) agree to a few ulp, as each
# backend uses its own math library.
# Note: the counter lives on the host and advances at each call, so a CUDA graph that
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
from ._philox import Philox

SeedSequence = _np.random.SeedSequence
BitGenerator = Philox

for _name in _legacy.MODULE_FUNCTIONS:
    globals()[_name] = _legacy._module_function(_name)
ranf = sample = globals()["random_sample"]
del _name

__all__ = ["BitGenerator", "Generator", "Philox", "RandomState", "SeedSequence",
           "default_rng", "get_bit_generator", "set_bit_generator", "ranf", "sample",
           *_legacy.MODULE_FUNCTIONS]


def __dir__():
    return sorted(__all__)

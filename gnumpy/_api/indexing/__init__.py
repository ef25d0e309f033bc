"""Reading and writing by index: ``a[key]`` and ``a[key] = value`` (``indexing``),
the gather/scatter functions built on it such as ``take`` and ``put`` (``advanced``), index
arrays such as ``nonzero`` and ``unravel_index`` (``index_tricks``), and the bounds checks
of device index arrays (``index_bounds``).
"""

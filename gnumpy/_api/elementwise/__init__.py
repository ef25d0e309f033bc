"""Functions applied element by element: the NumPy-semantics layer over the op table
(``elementwise``: promotion, broadcasting, loop resolution), the ``ufunc`` objects
(``ufunc``), the elementwise functions that are not plain op-table rows (``ewspecial``),
logic and comparison (``logic``), bit packing (``bits``), the mathematical odds and ends
built from fused elementwise ops (``mathmisc``), ``interp`` (``interpolation``) and the
functions applied over axes (``functional``).
"""

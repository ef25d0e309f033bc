"""Products: ``matmul`` and the vector products (``matmul``), ``dot``, ``outer``,
``tensordot``, ``convolve`` and friends (``products``), ``einsum`` (``einsum``), and the
polynomial functions on coefficient arrays (``polynomial``).
"""

"""Making arrays: ``asarray``/``array``, ranges and constant arrays (``creation``),
window functions (``windows``), the index-expression objects ``mgrid``, ``ogrid``, ``r_``,
``c_`` and ``s_`` (``grids``), and zero-copy import of foreign CUDA arrays through DLPack and
``__cuda_array_interface__`` (``interop``).
"""

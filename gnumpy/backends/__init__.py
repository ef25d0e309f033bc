"""Backends: the small protocol (allocate, copy in/out, run a group, synchronize) and its
implementations, ``cpu`` (NumPy underneath; the reference meaning of every IR op) and
``cuda`` (NVRTC-compiled kernels through cuda.core)."""

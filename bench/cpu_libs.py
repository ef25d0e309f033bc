"""gnumpy's CPU backend against NumPy itself on library-shaped work (matmul, svd, eigh,
solve, cholesky, qr, inv, lstsq, pinv, det, fft, sort, unique, cumsum, histogram, bincount,
random draws) at sizes a CPU handles; the ratio is gnumpy / NumPy (target: within 1.2x).

    GNUMPY_DEVICE=cpu python3 bench/cpu_libs.py [--budget 300] [--quick] [--cases 'svd*']

The cases, timing and checks are bench/libs.py's (``--peer numpy --sizes cpu``); JSON goes
to ``cpu_libs.json`` (``$OUT/cpu_libs.json`` when $OUT is set) after every case.
"""
import os
import sys

os.environ.setdefault("GNUMPY_DEVICE", "cpu")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import libs  # noqa: E402

if __name__ == "__main__":
    libs.main(cpu_mode=True)

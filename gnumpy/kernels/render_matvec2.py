"""Two matrix-vector products over one matrix in one pass over it (``x @ A`` and ``A @ y``,
NPBench's bicg and mvt): the two GEMVs would each read A; this reads it once.

``pass1_source``: a block of 256 threads takes ``RB`` rows of a tile of ``256 * Q``
columns of row-major A; each thread keeps Q columns' weighted sums (``w @ A``) in
registers, and every row's dot with ``u`` (``A @ u``) is summed over the block eight rows
at a time (shuffles, then shared memory).  Each block writes its partial sums: the
column sums of its rows, the row dots of its columns.  ``pass2_source`` adds the partial
sums in a fixed order (the results do not depend on the blocks' timing), scales them and
stores them, or adds them to a destination scaled by beta (mvt's ``x1 += A @ y1``).
"""
from __future__ import annotations

from .codegen import headers
from .types import COMPUTE, STORAGE

Q = 4               # columns a thread
RB = 32             # rows a block
THREADS = 256


def pass1_source(dt, name: str) -> str:
    st, ct = STORAGE[dt], COMPUTE[dt]
    return headers(dt) + f"""
extern "C" __global__ void __launch_bounds__({THREADS}) {name}(
    const {st}* __restrict__ A, long long lda, const {st}* __restrict__ u, long long us,
    const {st}* __restrict__ w, long long ws, {ct}* __restrict__ Wr, {ct}* __restrict__ Wc,
    long long M, long long N) {{
  __shared__ {ct} sm[{THREADS // 32}][8];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const long long j0 = (long long)blockIdx.x * {THREADS * Q} + t;
  {ct} uv[{Q}], acc[{Q}];
#pragma unroll
  for (int q = 0; q < {Q}; q++) {{
    const long long j = j0 + {THREADS} * q;
    uv[q] = j < N ? ({ct})u[j * us] : ({ct})0;
    acc[q] = ({ct})0;
  }}
  const long long i0 = (long long)blockIdx.y * {RB};
  const long long i1 = i0 + {RB} < M ? i0 + {RB} : M;
  for (long long ib = i0; ib < i1; ib += 8) {{
    {ct} s[8];
#pragma unroll
    for (int k = 0; k < 8; k++) {{
      const long long i = ib + k;
      s[k] = ({ct})0;
      if (i < i1) {{
        const {st}* row = A + i * lda;
        const {ct} wi = ({ct})w[i * ws];
#pragma unroll
        for (int q = 0; q < {Q}; q++) {{
          const long long j = j0 + {THREADS} * q;
          if (j < N) {{
            const {ct} a = ({ct})row[j];
            s[k] += a * uv[q];
            acc[q] += wi * a;
          }}
        }}
      }}
    }}
#pragma unroll
    for (int k = 0; k < 8; k++)
      for (int o = 16; o > 0; o >>= 1) s[k] += __shfl_down_sync(0xffffffffu, s[k], o);
    if (lane == 0) {{
#pragma unroll
      for (int k = 0; k < 8; k++) sm[warp][k] = s[k];
    }}
    __syncthreads();
    if (t < 8 && ib + t < i1) {{
      {ct} v = ({ct})0;
#pragma unroll
      for (int q = 0; q < {THREADS // 32}; q++) v += sm[q][t];
      Wr[(long long)blockIdx.x * M + ib + t] = v;
    }}
    __syncthreads();
  }}
#pragma unroll
  for (int q = 0; q < {Q}; q++) {{
    const long long j = j0 + {THREADS} * q;
    if (j < N) Wc[(long long)blockIdx.y * N + j] = acc[q];
  }}
}}
"""


def pass2_source(dt, name: str) -> str:
    st, ct = STORAGE[dt], COMPUTE[dt]
    return headers(dt) + f"""
extern "C" __global__ void __launch_bounds__({THREADS}) {name}(
    const {ct}* __restrict__ Wr, const {ct}* __restrict__ Wc, {st}* yr, long long yrs,
    {st}* yc, long long ycs, long long M, long long N, long long CT, long long RG,
    double ar, double ac, double br, double bc) {{
  const long long g = (long long)blockIdx.x * {THREADS} + threadIdx.x;
  if (g < M) {{
    {ct} v = ({ct})0;
    for (long long c = 0; c < CT; c++) v += Wr[c * M + g];
    v *= ({ct})ar;
    if (br != 0.0) v += ({ct})br * ({ct})yr[g * yrs];
    yr[g * yrs] = ({st})v;
  }} else if (g < M + N) {{
    const long long j = g - M;
    {ct} v = ({ct})0;
    for (long long r = 0; r < RG; r++) v += Wc[r * N + j];
    v *= ({ct})ac;
    if (bc != 0.0) v += ({ct})bc * ({ct})yc[j * ycs];
    yc[j * ycs] = ({st})v;
  }}
}}
"""

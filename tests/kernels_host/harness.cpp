// Host test harness for gnumpy's CUDA helper headers (gnumpy/kernels/gn_*.cuh).
//
// Compiled with g++ by tests/test_cuda_helpers_host.py and loaded with ctypes (and by NVRTC,
// where every entry point becomes a __global__ kernel).  Every entry point applies one helper
// elementwise: `<op>__<tag>(const T* a, [const U* b,] R* out, long n)`,
// and `cast__<from>__<to>(const F* a, T* out, long n)`.  Type tags follow NumPy's type chars:
//   b bool, i8 i16 i32 i64, u8 u16 u32 u64, f16 (binary16 bits), f32, f64, c64, c128.
// float16 ops run as the renderer runs them: load with gn_h2f, compute in float, store with
// gn_f2h (or the gn_<op>_h variant where NumPy's float16 loop is not "float op, then round").
#include "gn_core.cuh"
#include "gn_math.cuh"
#include "gn_complex.cuh"

struct H16 { unsigned short b; };  // float16 storage as a distinct type (for casts)

#ifdef __CUDACC_RTC__  // under NVRTC every entry point is a kernel, one thread per element
#define GN_IDX long i = blockIdx.x * (long)blockDim.x + threadIdx.x; if (i < n)
#define UN(fname, T, R, EXPR) \
  extern "C" __global__ void fname(const T* A, R* O, long n) { GN_IDX { T x = A[i]; O[i] = EXPR; } }
#define BIN(fname, T, U, R, EXPR)                                            \
  extern "C" __global__ void fname(const T* A, const U* B, R* O, long n) {   \
    GN_IDX { T x = A[i]; U y = B[i]; O[i] = EXPR; } }
#else
#define UN(fname, T, R, EXPR)                   \
  extern "C" void fname(const T* A, R* O, long n) { \
    for (long i = 0; i < n; ++i) { T x = A[i]; O[i] = EXPR; } }
#define BIN(fname, T, U, R, EXPR)                                   \
  extern "C" void fname(const T* A, const U* B, R* O, long n) {     \
    for (long i = 0; i < n; ++i) { T x = A[i]; U y = B[i]; O[i] = EXPR; } }
#endif

#define T_BOOL(M, op) M(op, b, bool)
#define T_INT(M, op) M(op, i8, gn_i8) M(op, i16, gn_i16) M(op, i32, gn_i32) M(op, i64, gn_i64) \
  M(op, u8, gn_u8) M(op, u16, gn_u16) M(op, u32, gn_u32) M(op, u64, gn_u64)
#define T_FLT(M, op) M(op, f32, float) M(op, f64, double)
#define T_CPX(M, op) M(op, c64, gn_c64) M(op, c128, gn_c128)

// T -> T, T -> bool, (T, T) -> T, (T, T) -> bool
#define U1(op, tag, T) UN(op##__##tag, T, T, gn_##op(x))
#define U1B(op, tag, T) UN(op##__##tag, T, bool, gn_##op(x))
#define B1(op, tag, T) BIN(op##__##tag, T, T, T, gn_##op(x, y))
#define B1B(op, tag, T) BIN(op##__##tag, T, T, bool, gn_##op(x, y))
// float16 through float
#define H1(op) UN(op##__f16, gn_f16s, gn_f16s, gn_f2h(gn_##op(gn_h2f(x))))
#define H1V(op, fn) UN(op##__f16, gn_f16s, gn_f16s, gn_f2h(fn(gn_h2f(x))))
#define H1B(op) UN(op##__f16, gn_f16s, bool, gn_##op(gn_h2f(x)))
#define HB(op) BIN(op##__f16, gn_f16s, gn_f16s, gn_f16s, gn_f2h(gn_##op(gn_h2f(x), gn_h2f(y))))
#define HBV(op, fn) BIN(op##__f16, gn_f16s, gn_f16s, gn_f16s, gn_f2h(fn(gn_h2f(x), gn_h2f(y))))
#define HBB(op) BIN(op##__f16, gn_f16s, gn_f16s, bool, gn_##op(gn_h2f(x), gn_h2f(y)))
// complex -> real
#define U1R(op, tag, T) UN(op##__##tag, T, typename gn_tc<T>::r, gn_##op(x))
// real -> real part / zero (the op table's real/imag on real input)
#define U1RR(op, tag, T) UN(op##__##tag, T, T, gn_##op(x))

// ---- groups by the op table's loop sets --------------------------------------------------
#define ALL_SAME_B(op) T_BOOL(B1, op) T_INT(B1, op) T_FLT(B1, op) HB(op) T_CPX(B1, op)
#define NUM_SAME_B(op) T_INT(B1, op) T_FLT(B1, op) HB(op) T_CPX(B1, op)
#define REALNB_B(op) T_INT(B1, op) T_FLT(B1, op) HB(op)
#define RFLT_B(op) T_FLT(B1, op) HB(op)
#define ALL_CMP(op) T_BOOL(B1B, op) T_INT(B1B, op) T_FLT(B1B, op) HBB(op) T_CPX(B1B, op)
#define FLT_U(op) T_FLT(U1, op) H1(op) T_CPX(U1, op)
#define RFLT_U(op) T_FLT(U1, op) H1(op)
#define NUM_U(op) T_INT(U1, op) T_FLT(U1, op) H1(op) T_CPX(U1, op)
#define ALL_PRED(op) T_BOOL(U1B, op) T_INT(U1B, op) T_FLT(U1B, op) H1B(op) T_CPX(U1B, op)

// arithmetic
ALL_SAME_B(add) NUM_SAME_B(subtract) ALL_SAME_B(multiply)
T_FLT(B1, divide) HB(divide) T_CPX(B1, divide)
REALNB_B(floor_divide) REALNB_B(remainder) REALNB_B(fmod)
NUM_SAME_B(power)
BIN(float_power__f64, double, double, double, gn_float_power(x, y))
BIN(float_power__c128, gn_c128, gn_c128, gn_c128, gn_float_power(x, y))
NUM_U(negative) NUM_U(positive) NUM_U(sign) NUM_U(square) NUM_U(reciprocal) NUM_U(conjugate)
T_BOOL(U1, absolute) T_INT(U1, absolute) T_FLT(U1, absolute) H1(absolute) T_CPX(U1R, absolute)
RFLT_U(fabs)
T_BOOL(U1RR, real) T_INT(U1RR, real) T_FLT(U1RR, real) H1(real) T_CPX(U1R, real)
T_BOOL(U1RR, imag) T_INT(U1RR, imag) T_FLT(U1RR, imag) H1(imag) T_CPX(U1R, imag)
#define MINMAX(op) T_BOOL(B1, op) T_INT(B1, op) T_FLT(B1, op) HBV(op, gn_##op##_h) T_CPX(B1, op)
MINMAX(maximum) MINMAX(minimum) MINMAX(fmax) MINMAX(fmin)
RFLT_B(heaviside)
T_INT(B1, gcd) T_INT(B1, lcm)
// exponents, logs, trigonometric, hyperbolic
FLT_U(sqrt) RFLT_U(cbrt) FLT_U(exp) FLT_U(exp2) FLT_U(expm1)
FLT_U(log) FLT_U(log2) FLT_U(log10) FLT_U(log1p)
RFLT_B(logaddexp) RFLT_B(logaddexp2)
FLT_U(sin) FLT_U(cos) FLT_U(tan) FLT_U(arcsin) FLT_U(arccos) FLT_U(arctan)
RFLT_B(arctan2) RFLT_B(hypot)
FLT_U(sinh) FLT_U(cosh) FLT_U(tanh) FLT_U(arcsinh) FLT_U(arccosh) FLT_U(arctanh)
RFLT_U(deg2rad) RFLT_U(rad2deg)
// rounding and floating-point functions
#define REAL_U(op) T_BOOL(U1, op) T_INT(U1, op) T_FLT(U1, op) H1(op)
REAL_U(floor) REAL_U(ceil) REAL_U(trunc)
FLT_U(rint)
RFLT_B(copysign)
T_FLT(B1, nextafter) HBV(nextafter, gn_nextafter_h)
T_FLT(U1, spacing) H1V(spacing, gn_spacing_h)
T_FLT(U1B, signbit) H1B(signbit)
RFLT_U(modf_frac) RFLT_U(frexp_mant)
UN(frexp_exp__f32, float, int, gn_frexp_exp(x))
UN(frexp_exp__f64, double, int, gn_frexp_exp(x))
UN(frexp_exp__f16, gn_f16s, int, gn_frexp_exp(gn_h2f(x)))
BIN(ldexp__f32, float, long long, float, gn_ldexp(x, y))
BIN(ldexp__f64, double, long long, double, gn_ldexp(x, y))
BIN(ldexp__f16, gn_f16s, long long, gn_f16s, gn_f2h(gn_ldexp(gn_h2f(x), y)))
// predicates, comparisons, logical, bitwise
ALL_PRED(isfinite) ALL_PRED(isinf) ALL_PRED(isnan) ALL_PRED(logical_not) ALL_PRED(truth)
ALL_CMP(equal) ALL_CMP(not_equal) ALL_CMP(less) ALL_CMP(less_equal) ALL_CMP(greater)
ALL_CMP(greater_equal) ALL_CMP(logical_and) ALL_CMP(logical_or) ALL_CMP(logical_xor)
#define INTB_B(op) T_BOOL(B1, op) T_INT(B1, op)
INTB_B(bitwise_and) INTB_B(bitwise_or) INTB_B(bitwise_xor)
T_BOOL(U1, invert) T_INT(U1, invert)
T_INT(B1, left_shift) T_INT(B1, right_shift)
#define U1U8(op, tag, T) UN(op##__##tag, T, gn_u8, gn_##op(x))
T_INT(U1U8, bitwise_count)

// ---- casts: every pair of the 14 types ---------------------------------------------------
template <class To> struct HC {
  template <class F> static GN_HD To f(F x) { return gn_cast<To>(x); }
  static GN_HD To f(H16 x) { return gn_cast<To>(gn_h2f(x.b)); }
};
template <> struct HC<H16> {
  template <class F> static GN_HD H16 f(F x) { H16 r; r.b = gn_to_f16(x); return r; }
  static GN_HD H16 f(H16 x) { return x; }
};
#define TYPES_A(M, X, Y) M(b, bool, X, Y) M(i8, gn_i8, X, Y) M(i16, gn_i16, X, Y)     \
  M(i32, gn_i32, X, Y) M(i64, gn_i64, X, Y) M(u8, gn_u8, X, Y) M(u16, gn_u16, X, Y)   \
  M(u32, gn_u32, X, Y) M(u64, gn_u64, X, Y) M(f16, H16, X, Y) M(f32, float, X, Y)     \
  M(f64, double, X, Y) M(c64, gn_c64, X, Y) M(c128, gn_c128, X, Y)
#define TYPES_B(M, X, Y) M(b, bool, X, Y) M(i8, gn_i8, X, Y) M(i16, gn_i16, X, Y)     \
  M(i32, gn_i32, X, Y) M(i64, gn_i64, X, Y) M(u8, gn_u8, X, Y) M(u16, gn_u16, X, Y)   \
  M(u32, gn_u32, X, Y) M(u64, gn_u64, X, Y) M(f16, H16, X, Y) M(f32, float, X, Y)     \
  M(f64, double, X, Y) M(c64, gn_c64, X, Y) M(c128, gn_c128, X, Y)
#define CAST1(ttag, TT, ftag, FT) UN(cast__##ftag##__##ttag, FT, TT, HC<TT>::f(x))
#define CASTS_FROM(ftag, FT, X, Y) TYPES_B(CAST1, ftag, FT)
TYPES_A(CASTS_FROM, _, _)

// gn_rh: round float to the nearest float16 value
UN(rh__f32, float, float, gn_rh(x))

// gn_mxs (online max and sum of exp(x - max)): each row of k values pushed in two halves
// (the first by vectors of 4 while they last)
// whose accumulators are then combined, as a thread's pushes and the block's tree do;
// O[2 * row] = max, O[2 * row + 1] = sum of exp(x - max)
template <class F> GN_HD void mxs_row(const F* A, F* O, long k) {
  const gn_mxs<F> id{-gn_fc<F>::inf(), (F)0};
  gn_mxs<F> a = id, b = id;
  long j = 0;
  for (; j + 4 <= k / 2; j += 4) {        // vectors of 4, as a row kernel's thread pushes
    const F v[4] = {A[j], A[j + 1], A[j + 2], A[j + 3]};
    a = gn_mxs_push_n(a, v);
  }
  for (; j < k / 2; ++j) a = gn_mxs_push(a, A[j]);
  for (long j = k / 2; j < k; ++j) b = gn_mxs_push(b, A[j]);
  const gn_mxs<F> c = gn_mxs_comb(a, b);
  O[0] = c.m;
  O[1] = gn_mxs_sum(c);
}
#ifdef __CUDACC_RTC__
#define MXS(tag, T) extern "C" __global__ void mxs__##tag(const T* A, T* O, long n, long k) { \
  GN_IDX mxs_row(A + i * k, O + 2 * i, k); }
#else
#define MXS(tag, T) extern "C" void mxs__##tag(const T* A, T* O, long n, long k) { \
  for (long i = 0; i < n; ++i) mxs_row(A + i * k, O + 2 * i, k); }
#endif
MXS(f32, float) MXS(f64, double)

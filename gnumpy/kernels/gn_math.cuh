// gn_math.cuh -- real-valued elementwise helpers with NumPy's semantics (include after
// gn_core.cuh).  Every op is `gn_<op>`, overloaded for float, double and, where NumPy has
// integer loops, the integer types (and bool where NumPy has a bool loop), so the renderer
// can emit `gn_<op>(a, b)` uniformly.  float16 computes as float (see gn_core.cuh), except the
// ops whose float16 loop in NumPy is not "float op, then round": use gn_<op>_h for spacing,
// nextafter, maximum, minimum, fmax, fmin.
//
// The integer overloads never execute signed overflow or out-of-range shifts (undefined
// behaviour in C++): they compute in a wide unsigned type and wrap, as NumPy does.
#ifndef GN_MATH_CUH
#define GN_MATH_CUH

#define GN_I(T) typename gn_ti<T>::t   // return type T, integer/bool overloads only
#define GN_F(T) typename gn_tf<T>::t   // return type T, float/double overloads only
template <class A, class R> struct gn_ret { typedef R t; };
#define GN_IB(T) typename gn_ret<typename gn_ti<T>::t, bool>::t  // bool result, integer args
#define GN_FB(T) typename gn_ret<typename gn_tf<T>::t, bool>::t  // bool result, float args
#define GN_RB(T) typename gn_ret<typename gn_tr<T>::t, bool>::t  // bool result, any real args

// ---- thin wrappers over the CUDA / C math library ------------------------------------------
#define GN_U_(n, ff, fd) \
  GN_HD float gn_##n(float x) { return ff(x); } GN_HD double gn_##n(double x) { return fd(x); }
#define GN_B_(n, ff, fd)                                              \
  GN_HD float gn_##n(float x, float y) { return ff(x, y); }           \
  GN_HD double gn_##n(double x, double y) { return fd(x, y); }
GN_U_(sqrt, sqrtf, sqrt) GN_U_(cbrt, cbrtf, cbrt)
GN_U_(exp, expf, exp) GN_U_(exp2, exp2f, exp2) GN_U_(expm1, expm1f, expm1)
GN_U_(log, logf, log) GN_U_(log2, log2f, log2) GN_U_(log10, log10f, log10)
GN_U_(log1p, log1pf, log1p)
GN_U_(sin, sinf, sin) GN_U_(cos, cosf, cos) GN_U_(tan, tanf, tan)
GN_U_(arcsin, asinf, asin) GN_U_(arccos, acosf, acos) GN_U_(arctan, atanf, atan)
GN_U_(sinh, sinhf, sinh) GN_U_(cosh, coshf, cosh) GN_U_(tanh, tanhf, tanh)
GN_U_(arcsinh, asinhf, asinh) GN_U_(arccosh, acoshf, acosh) GN_U_(arctanh, atanhf, atanh)
GN_U_(rint, rintf, rint) GN_U_(floor, floorf, floor) GN_U_(ceil, ceilf, ceil)
GN_U_(trunc, truncf, trunc) GN_U_(fabs, fabsf, fabs)
GN_B_(power, powf, pow) GN_B_(fmod, fmodf, fmod)
GN_B_(arctan2, atan2f, atan2) GN_B_(copysign, copysignf, copysign)
GN_B_(nextafter, nextafterf, nextafter)
#undef GN_U_
#undef GN_B_
GN_HD float gn_hypot(float x, float y) { return hypotf(x, y); }
GN_HD double gn_hypot(double x, double y) {
#ifdef __CUDA_ARCH__
  double r = hypot(x, y);  // CUDA's hypot gives inf for results within an ulp or so of DBL_MAX
  if (r == gn_inf() && fabs(x) < gn_inf() && fabs(y) < gn_inf()) {
    double a = fabs(x) > fabs(y) ? fabs(x) : fabs(y), b = fabs(x) > fabs(y) ? fabs(y) : fabs(x);
    double q = b / a;
    r = a * sqrt(1.0 + q * q);
  }
  return r;
#else
  return hypot(x, y);
#endif
}
GN_HD float gn_fma(float a, float b, float c) { return fmaf(a, b, c); }
GN_HD double gn_fma(double a, double b, double c) { return fma(a, b, c); }
GN_HD float gn_frexp(float x, int* e) { return frexpf(x, e); }
GN_HD double gn_frexp(double x, int* e) { return frexp(x, e); }
GN_HD float gn_ldexp(float x, int e) { return ldexpf(x, e); }
GN_HD double gn_ldexp(double x, int e) { return ldexp(x, e); }
// A product the device compiler may not fuse into an FMA (NumPy rounds it separately).
GN_HD float gn_mul_rn(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
GN_HD double gn_mul_rn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

// float / double constants (float ones are float literals, as in NumPy's float loops)
template <class F> struct gn_fc {};
template <> struct gn_fc<float> {
  static GN_HD float loge2() { return 0.693147180559945309417232121458176568f; }
  static GN_HD float log2e() { return 1.442695040888963407359924681001892137f; }
  static GN_HD float log10e() { return 0.434294481903251827651128918916605082f; }
  static GN_HD float pi_2() { return 1.570796326794896619231321691639751442f; }
  static GN_HD float d2r() { return 3.141592653589793238462643383279502884f / 180.0f; }
  static GN_HD float r2d() { return 180.0f / 3.141592653589793238462643383279502884f; }
  static GN_HD float minsub() { return gn_bitsf(1u); }
  static GN_HD float nextmag(float x) { return gn_bitsf(gn_fbits(x) + 1u); }
  static GN_HD bool sbit(float x) { return (gn_fbits(x) >> 31) != 0; }
  static GN_HD float inf() { return gn_inff(); }
  static GN_HD float nan() { return gn_nanf(); }
};
template <> struct gn_fc<double> {
  static GN_HD double loge2() { return 0.693147180559945309417232121458176568; }
  static GN_HD double log2e() { return 1.442695040888963407359924681001892137; }
  static GN_HD double log10e() { return 0.434294481903251827651128918916605082; }
  static GN_HD double pi_2() { return 1.570796326794896619231321691639751442; }
  static GN_HD double d2r() { return 3.141592653589793238462643383279502884 / 180.0; }
  static GN_HD double r2d() { return 180.0 / 3.141592653589793238462643383279502884; }
  static GN_HD double minsub() { return gn_bitsd(1ull); }
  static GN_HD double nextmag(double x) { return gn_bitsd(gn_dbits(x) + 1ull); }
  static GN_HD bool sbit(double x) { return (gn_dbits(x) >> 63) != 0; }
  static GN_HD double inf() { return gn_inf(); }
  static GN_HD double nan() { return gn_nan(); }
};

// ---- float / double ----------------------------------------------------------------------
template <class F> GN_HD GN_FB(F) gn_isnan(F x) { return x != x; }
template <class F> GN_HD GN_FB(F) gn_isinf(F x) { return gn_fabs(x) == gn_fc<F>::inf(); }
template <class F> GN_HD GN_FB(F) gn_isfinite(F x) { return gn_fabs(x) < gn_fc<F>::inf(); }
template <class F> GN_HD GN_FB(F) gn_signbit(F x) { return gn_fc<F>::sbit(x); }
template <class F> GN_HD GN_F(F) gn_add(F a, F b) { return a + b; }
template <class F> GN_HD GN_F(F) gn_subtract(F a, F b) { return a - b; }
template <class F> GN_HD GN_F(F) gn_multiply(F a, F b) { return a * b; }
template <class F> GN_HD GN_F(F) gn_divide(F a, F b) { return a / b; }
template <class F> GN_HD GN_F(F) gn_negative(F a) { return -a; }
template <class F> GN_HD GN_F(F) gn_absolute(F a) { return gn_fabs(a); }
template <class F> GN_HD GN_F(F) gn_square(F a) { return a * a; }
template <class F> GN_HD GN_F(F) gn_reciprocal(F a) { return (F)1 / a; }
// sign: +-1, 0 for +-0 (always +0), NaN for NaN
template <class F> GN_HD GN_F(F) gn_sign(F a) {
  return a > 0 ? (F)1 : (a < 0 ? (F)-1 : (a == 0 ? (F)0 : a));
}
// maximum/minimum propagate NaN (the first NaN operand).  Note: on ties (+0 vs -0) NumPy's
// float32/float64 loops on x86-64 (maxsd/minsd) return the SECOND operand; we match that.
template <class F> GN_HD GN_F(F) gn_maximum(F a, F b) { return (a != a || a > b) ? a : b; }
template <class F> GN_HD GN_F(F) gn_minimum(F a, F b) { return (a != a || a < b) ? a : b; }
// fmax/fmin ignore a NaN operand (NaN only if both are NaN); ties return the second operand.
template <class F> GN_HD GN_F(F) gn_fmax(F a, F b) { return (b != b || a > b) ? a : b; }
template <class F> GN_HD GN_F(F) gn_fmin(F a, F b) { return (b != b || a < b) ? a : b; }
// NumPy's npy_floor_divide / npy_remainder (npy_divmod, from CPython)
template <class F> GN_HD GN_F(F) gn_floor_divide(F a, F b) {
  if (b == 0) return a / b;
  F mod = gn_fmod(a, b);
  F div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= (F)1;
  if (div != 0) {
    F fl = gn_floor(div);
    if (div - fl > (F)0.5) fl += (F)1;
    return fl;
  }
  return gn_copysign((F)0, a / b);
}
template <class F> GN_HD GN_F(F) gn_remainder(F a, F b) {
  F mod = gn_fmod(a, b);
  if (b == 0) return mod;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = gn_copysign((F)0, b);
  }
  return mod;
}
template <class F> GN_HD GN_F(F) gn_logaddexp(F x, F y) {
  if (x == y) return x + gn_fc<F>::loge2();
  F t = x - y;
  if (t > 0) return x + gn_log1p(gn_exp(-t));
  if (t <= 0) return y + gn_log1p(gn_exp(t));
  return t;  // NaN
}
template <class F> GN_HD GN_F(F) gn_logaddexp2(F x, F y) {
  if (x == y) return x + (F)1;
  F t = x - y;
  if (t > 0) return x + gn_mul_rn(gn_fc<F>::log2e(), gn_log1p(gn_exp2(-t)));
  if (t <= 0) return y + gn_mul_rn(gn_fc<F>::log2e(), gn_log1p(gn_exp2(t)));
  return t;
}
// Online max and sum of exp(x - max) in one pass (a row group's max phase and the exp-sum
// phase that reads it back, render_rows.py): m is the running max, exactly as a max
// reduction computes it (gn_maximum, same order); s is the sum of exp(x - m) over the values
// seen, rescaled when m grows.  exp(a - m) is taken as 1 when a == m, so rows of -inf or
// +inf do not poison s with exp(NaN) before the final max is known; gn_mxs_sum then gives
// NaN wherever the max is not finite, as sum(exp(x - max(x))) does (inf - inf, or NaN).
template <class F> struct gn_mxs { F m; F s; };
template <class F> GN_HD F gn_mxs_scale(F a, F m) { return a == m ? (F)1 : gn_exp((F)(a - m)); }
template <class F> GN_HD gn_mxs<F> gn_mxs_push(gn_mxs<F> a, F x) {
  const F m = gn_maximum(a.m, x);
  if (m == a.m) return gn_mxs<F>{m, (F)(a.s + gn_mxs_scale(x, m))};  // common: one exp
  return gn_mxs<F>{m, (F)((F)(a.s * gn_mxs_scale(a.m, m)) + gn_mxs_scale(x, m))};
}
// N values at once (a thread's vector): the max first, one rescale, then N independent exps
// (pushing them one by one chains every exp behind the previous max: 2x slower on the H200)
template <class F, int N> GN_HD gn_mxs<F> gn_mxs_push_n(gn_mxs<F> a, const F (&x)[N]) {
  F m = a.m;
  for (int e = 0; e < N; ++e) m = gn_maximum(m, x[e]);
  F s = m == a.m ? a.s : (F)(a.s * gn_mxs_scale(a.m, m));
  for (int e = 0; e < N; ++e) s = (F)(s + gn_mxs_scale(x[e], m));
  return gn_mxs<F>{m, s};
}
template <class F> GN_HD gn_mxs<F> gn_mxs_comb(gn_mxs<F> a, gn_mxs<F> b) {
  const F m = gn_maximum(a.m, b.m);
  return gn_mxs<F>{m, (F)((F)(a.s * gn_mxs_scale(a.m, m)) + (F)(b.s * gn_mxs_scale(b.m, m)))};
}
template <class F> GN_HD F gn_mxs_sum(gn_mxs<F> a) {
  return gn_isfinite(a.m) ? a.s : gn_fc<F>::nan();
}
template <class F> GN_HD GN_F(F) gn_heaviside(F x, F h0) {
  if (x != x) return gn_fc<F>::nan();
  if (x == 0) return h0;
  return x < 0 ? (F)0 : (F)1;
}
// npy_spacing: distance to the next value away from zero, with x's sign; +-0 -> +min
// subnormal; inf -> NaN; largest finite -> inf.
template <class F> GN_HD GN_F(F) gn_spacing(F x) {
  if (gn_isinf(x)) return gn_fc<F>::nan();
  if (x != x) return x;
  if (x == 0) return gn_fc<F>::minsub();
  return gn_fc<F>::nextmag(x) - x;
}
template <class F> GN_HD GN_F(F) gn_deg2rad(F x) { return x * gn_fc<F>::d2r(); }
template <class F> GN_HD GN_F(F) gn_rad2deg(F x) { return x * gn_fc<F>::r2d(); }
GN_HD double gn_float_power(double a, double b) { return pow(a, b); }  // the 'dd' loop
GN_HD float gn_modf_frac(float x) { float i; return modff(x, &i); }
GN_HD double gn_modf_frac(double x) { double i; return modf(x, &i); }
template <class F> GN_HD GN_F(F) gn_frexp_mant(F x) { int e; return gn_frexp(x, &e); }
// exponent of frexp; 0 for 0, inf and NaN (as NumPy)
template <class F> GN_HD typename gn_ret<GN_F(F), int>::t gn_frexp_exp(F x) {
  int e = 0;
  gn_frexp(x, &e);
  return gn_isfinite(x) ? e : 0;
}
// ldexp with a 64-bit exponent: clamped to the int range first (as NumPy's int64 loop)
GN_HD float gn_ldexp(float x, long long e) {
  return ldexpf(x, e > 2147483647LL ? 2147483647 : e < -2147483647LL - 1 ? -2147483647 - 1
                                                                          : (int)e);
}
GN_HD double gn_ldexp(double x, long long e) {
  return ldexp(x, e > 2147483647LL ? 2147483647 : e < -2147483647LL - 1 ? -2147483647 - 1
                                                                         : (int)e);
}

// ---- float16 ops that are not "compute in float, then round" (args/results as float) -------
// npy_half_spacing: distance to the next half of larger magnitude, except for negative powers of
// two, where NumPy returns the gap towards zero; the result is always positive.
GN_HD float gn_spacing_h(float x) {
  unsigned h = gn_f2h(x), e = h & 0x7c00u, m = h & 0x03ffu, r;
  if (e == 0x7c00u) r = 0x7e00u;
  else if (h == 0x7bffu) r = 0x7c00u;
  else if ((h & 0x8000u) && m == 0)
    r = e > 0x2c00u ? e - 0x2c00u : e > 0x0400u ? 1u << ((e >> 10) - 2u) : 1u;
  else
    r = e > 0x2800u ? e - 0x2800u : e > 0x0400u ? 1u << ((e >> 10) - 1u) : 1u;
  return gn_h2f((unsigned short)r);
}
// npy_half_nextafter
GN_HD float gn_nextafter_h(float x, float y) {
  if (x != x || y != y) return gn_nanf();
  if (x == y) return y;
  unsigned hx = gn_f2h(x), hy = gn_f2h(y), r;
  if ((hx & 0x7fffu) == 0) r = (hy & 0x8000u) + 1u;
  else if (!(hx & 0x8000u)) r = (short)hx > (short)hy ? hx - 1u : hx + 1u;
  else r = (!(hy & 0x8000u) || (hx & 0x7fffu) > (hy & 0x7fffu)) ? hx - 1u : hx + 1u;
  return gn_h2f((unsigned short)r);
}
// NumPy's float16 maximum/minimum/fmax/fmin return the FIRST operand on ties
GN_HD float gn_maximum_h(float a, float b) { return (a >= b || a != a) ? a : b; }
GN_HD float gn_minimum_h(float a, float b) { return (a <= b || a != a) ? a : b; }
GN_HD float gn_fmax_h(float a, float b) { return (a >= b || b != b) ? a : b; }
GN_HD float gn_fmin_h(float a, float b) { return (a <= b || b != b) ? a : b; }

// ---- integers (and bool where NumPy has a bool loop) ---------------------------------------
template <class T> GN_HD bool gn_ineg(T a) {
  if constexpr (gn_ti<T>::sgn) return a < 0; else return false;
}
template <class T> GN_HD typename gn_ti<T>::w gn_uabs(T a) {
  typedef typename gn_ti<T>::w W;
  return gn_ineg(a) ? (W)0 - (W)a : (W)a;
}
#define GN_W typename gn_ti<T>::w
template <class T> GN_HD GN_I(T) gn_add(T a, T b) { return (T)((GN_W)a + (GN_W)b); }
template <class T> GN_HD GN_I(T) gn_subtract(T a, T b) { return (T)((GN_W)a - (GN_W)b); }
template <class T> GN_HD GN_I(T) gn_multiply(T a, T b) { return (T)((GN_W)a * (GN_W)b); }
template <class T> GN_HD GN_I(T) gn_negative(T a) { return (T)((GN_W)0 - (GN_W)a); }
template <class T> GN_HD GN_I(T) gn_absolute(T a) { return (T)gn_uabs(a); }  // abs(MIN) == MIN
template <class T> GN_HD GN_I(T) gn_square(T a) { return (T)((GN_W)a * (GN_W)a); }
template <class T> GN_HD GN_I(T) gn_sign(T a) { return (T)((a > 0) - gn_ineg(a)); }
// NumPy computes (T)(1.0 / a): 0 for |a| > 1.  For a == 0 that C cast is undefined; we return
// what NumPy gives on x86-64: INT_MIN for 32/64-bit signed types, 0 otherwise.
template <class T> GN_HD GN_I(T) gn_reciprocal(T a) {
  if (a == 1) return (T)1;
  if constexpr (gn_ti<T>::sgn) {
    if (a == -1) return (T)-1;
    if (a == 0 && sizeof(T) >= 4) return gn_ti<T>::lo();
  }
  return (T)0;
}
// Division and modulo by zero give 0; MIN // -1 == MIN and MIN % -1 == 0 (as NumPy).
template <class T> GN_HD_NOINLINE GN_I(T) gn_floor_divide(T a, T b) {
  if (b == 0) return (T)0;
  if constexpr (gn_ti<T>::sgn) {
    if (b == -1) return (T)((GN_W)0 - (GN_W)a);
    T q = (T)(a / b);
    if ((T)(a % b) != 0 && ((a < 0) != (b < 0))) q = (T)(q - 1);
    return q;
  } else {
    return (T)(a / b);
  }
}
template <class T> GN_HD_NOINLINE GN_I(T) gn_remainder(T a, T b) {
  if (b == 0) return (T)0;
  if constexpr (gn_ti<T>::sgn) {
    if (b == -1) return (T)0;
    T r = (T)(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = (T)(r + b);
    return r;
  } else {
    return (T)(a % b);
  }
}
template <class T> GN_HD_NOINLINE GN_I(T) gn_fmod(T a, T b) {
  if (b == 0) return (T)0;
  if constexpr (gn_ti<T>::sgn) {
    if (b == -1) return (T)0;
  }
  return (T)(a % b);
}
// Wrapping integer power.  Note: a negative exponent gives the truncated result (0 for
// |a| > 1, 1 for a == 1, +-1 for a == -1) where NumPy raises (gnumpy's documented deviation).
template <class T> GN_HD GN_I(T) gn_power(T a, T b) {
  if constexpr (gn_ti<T>::sgn) {
    if (b < 0) return a == 1 ? (T)1 : a == -1 ? (T)((b & 1) ? -1 : 1) : (T)0;
  }
  GN_W base = (GN_W)a, r = 1;
  unsigned long long e = (unsigned long long)b;
  while (e) {
    if (e & 1u) r *= base;
    base *= base;
    e >>= 1;
  }
  return (T)r;
}
template <class T> GN_HD GN_I(T) gn_maximum(T a, T b) { return a > b ? a : b; }
template <class T> GN_HD GN_I(T) gn_minimum(T a, T b) { return a < b ? a : b; }
template <class T> GN_HD GN_I(T) gn_fmax(T a, T b) { return a > b ? a : b; }
template <class T> GN_HD GN_I(T) gn_fmin(T a, T b) { return a < b ? a : b; }
template <class T> GN_HD GN_I(T) gn_floor(T a) { return a; }
template <class T> GN_HD GN_I(T) gn_ceil(T a) { return a; }
template <class T> GN_HD GN_I(T) gn_trunc(T a) { return a; }
template <class T> GN_HD GN_I(T) gn_rint(T a) { return a; }
template <class T> GN_HD GN_IB(T) gn_isnan(T) { return false; }
template <class T> GN_HD GN_IB(T) gn_isinf(T) { return false; }
template <class T> GN_HD GN_IB(T) gn_isfinite(T) { return true; }
// gcd/lcm of |a|, |b| in unsigned arithmetic, wrapped back to T (gcd(MIN, 0) == MIN)
template <class W> GN_HD W gn_gcdu(W x, W y) {
  while (x != 0) { W c = x; x = y % x; y = c; }
  return y;
}
template <class T> GN_HD GN_I(T) gn_gcd(T a, T b) { return (T)gn_gcdu(gn_uabs(a), gn_uabs(b)); }
template <class T> GN_HD GN_I(T) gn_lcm(T a, T b) {
  GN_W x = gn_uabs(a), y = gn_uabs(b), g = gn_gcdu(x, y);
  return g == 0 ? (T)0 : (T)(x / g * y);
}
// Shifts: a count outside [0, bits) gives 0 (or -1 for negative a shifted right).
template <class T> GN_HD GN_I(T) gn_left_shift(T a, T b) {
  if ((unsigned long long)b >= (unsigned long long)gn_ti<T>::bits) return (T)0;
  return (T)((GN_W)a << b);
}
template <class T> GN_HD GN_I(T) gn_right_shift(T a, T b) {
  if ((unsigned long long)b >= (unsigned long long)gn_ti<T>::bits) return (T)(gn_ineg(a) ? -1 : 0);
  return (T)(a >> b);
}
template <class T> GN_HD GN_I(T) gn_invert(T a) { return (T)~a; }
GN_HD bool gn_invert(bool a) { return !a; }
template <class T> GN_HD GN_I(T) gn_bitwise_and(T a, T b) { return (T)(a & b); }
template <class T> GN_HD GN_I(T) gn_bitwise_or(T a, T b) { return (T)(a | b); }
template <class T> GN_HD GN_I(T) gn_bitwise_xor(T a, T b) { return (T)(a ^ b); }
// NumPy's bitwise_count: the number of 1 bits in |a|, as uint8
template <class T> GN_HD unsigned char gn_bitwise_count(T a) {
  const unsigned long long u = (unsigned long long)gn_uabs(a);
#ifdef __CUDA_ARCH__
  return (unsigned char)__popcll(u);
#else
  return (unsigned char)__builtin_popcountll(u);
#endif
}
#undef GN_W

// ---- any real type -----------------------------------------------------------------------
template <class T> GN_HD typename gn_tr<T>::t gn_positive(T a) { return a; }
template <class T> GN_HD typename gn_tr<T>::t gn_conjugate(T a) { return a; }
template <class T> GN_HD typename gn_tr<T>::t gn_real(T a) { return a; }
template <class T> GN_HD typename gn_tr<T>::t gn_imag(T) { return (T)0; }
template <class T> GN_HD GN_RB(T) gn_nonzero(T a) { return a != 0; }
template <class T> GN_HD bool gn_truth(T a) { return gn_nonzero(a); }  // alias, every type
template <class T> GN_HD GN_RB(T) gn_equal(T a, T b) { return a == b; }
template <class T> GN_HD GN_RB(T) gn_not_equal(T a, T b) { return a != b; }
template <class T> GN_HD GN_RB(T) gn_less(T a, T b) { return a < b; }
template <class T> GN_HD GN_RB(T) gn_less_equal(T a, T b) { return a <= b; }
template <class T> GN_HD GN_RB(T) gn_greater(T a, T b) { return a > b; }
template <class T> GN_HD GN_RB(T) gn_greater_equal(T a, T b) { return a >= b; }
// logical ops for every type, complex included (gn_nonzero is the truth value)
template <class T> GN_HD bool gn_logical_and(T a, T b) { return gn_nonzero(a) && gn_nonzero(b); }
template <class T> GN_HD bool gn_logical_or(T a, T b) { return gn_nonzero(a) || gn_nonzero(b); }
template <class T> GN_HD bool gn_logical_xor(T a, T b) { return gn_nonzero(a) != gn_nonzero(b); }
template <class T> GN_HD bool gn_logical_not(T a) { return !gn_nonzero(a); }

#endif  // GN_MATH_CUH

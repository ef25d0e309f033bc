// gn_complex.cuh -- complex64 / complex128 helpers with NumPy's semantics (include after
// gn_core.cuh, which defines gn_c64 {float re, im;} and gn_c128 {double re, im;}, and
// gn_math.cuh).  Every op is `gn_<op>(z)` / `gn_<op>(a, b)` like the real helpers; absolute,
// real and imag return the real component type, predicates and comparisons return bool.
// Needs no header of any kind: only the real helpers of gn_math.cuh.
//
// Algorithms: arithmetic, comparisons, sign, reciprocal, power, expm1, log1p, exp2, log2 and
// log10 follow NumPy's own loops (umath/loops.c.src, funcs.inc.src, npy_math_complex.c.src);
// multiply and square use NumPy's SIMD formula (re = fma(ar, br, -ai*bi), im = fma(ar, bi,
// ai*br)), which is what NumPy computes for contiguous arrays on FMA-capable CPUs.  sqrt, exp,
// log and the trigonometric / hyperbolic functions and their inverses are adapted from the
// FreeBSD msun code in NumPy's npy_math_complex.c.src (BSD licence; C99 Annex G special
// values).  NumPy on Linux calls glibc's functions instead; where glibc picks differently
// (unspecified signs, C17 changes) we follow glibc, as marked, and elsewhere the results agree
// within a few ulp.  Changes from msun: exp scales from log(DBL_MAX) (not 710.48, which let
// exp(710 + iy) overflow), sqrt rescales both parts (and subnormal inputs), power's general
// case is glibc's cexp(b * clog(a)) with C99 complex multiplication.
#ifndef GN_COMPLEX_CUH
#define GN_COMPLEX_CUH

#define GN_C(C) typename gn_tc<C>::t
#define GN_CR(C) typename gn_tc<C>::r
#define GN_CB(C) typename gn_ret<typename gn_tc<C>::t, bool>::t

template <class C, class R> GN_HD C gn_cx(R re, R im) { C z; z.re = re; z.im = im; return z; }

// per-precision constants of the msun algorithms
template <class R> struct gn_ck {};
template <> struct gn_ck<float> {
  typedef gn_c64 C;
  static GN_HD float eps() { return 1.1920928955078125e-07f; }
  static GN_HD float max() { return 3.40282346638528859812e+38f; }
  static GN_HD float min() { return 1.17549435082228750797e-38f; }
  enum { mant = 24, bias = 127, maxexp = 128, cutoff = 13, cexp_k = 235 };
  static GN_HD int bexp(float x) { return (int)((gn_fbits(x) >> 23) & 0xffu); }
  static GN_HD float cexp_lo() { return 88.7228390f; }  // log(FLT_MAX)
  static GN_HD float cexp_hi() { return 192.69492f; }
  static GN_HD float cosh_big() { return 9.0f; }
  static GN_HD float cosh_huge() { return 1.70141183e+38f; }
  static GN_HD float tanh_huge() { return 11.0f; }
  static GN_HD float four_sqrt_min() { return 4.3368086899420177e-19f; }
  static GN_HD float quarter_sqrt_max() { return 4.611685743549481e+18f; }
  static GN_HD float sqrt_min() { return 1.0842021724855044e-19f; }
  static GN_HD float sqrt6eps() { return 8.4572793338e-4f; }
  static GN_HD float sqrt3eps() { return 5.9801995673e-4f; }
  static GN_HD float e() { return 2.718281828459045235360287471352662498f; }
  static GN_HD float pio2_lo() { return 7.5497899549e-9f; }
};
template <> struct gn_ck<double> {
  typedef gn_c128 C;
  static GN_HD double eps() { return 2.2204460492503131e-16; }
  static GN_HD double max() { return 1.7976931348623157e+308; }
  static GN_HD double min() { return 2.2250738585072014e-308; }
  enum { mant = 53, bias = 1023, maxexp = 1024, cutoff = 27, cexp_k = 1799 };
  static GN_HD int bexp(double x) { return (int)((gn_dbits(x) >> 52) & 0x7ffu); }
  static GN_HD double cexp_lo() { return 709.78271289338397; }  // log(DBL_MAX)
  static GN_HD double cexp_hi() { return 1454.9159319953251; }
  static GN_HD double cosh_big() { return 22.0; }
  static GN_HD double cosh_huge() { return 8.9884656743115795e+307; }
  static GN_HD double tanh_huge() { return 22.0; }
  static GN_HD double four_sqrt_min() { return 5.9666725849601654e-154; }
  static GN_HD double quarter_sqrt_max() { return 3.3519519824856489e+153; }
  static GN_HD double sqrt_min() { return 1.4916681462400413e-154; }
  static GN_HD double sqrt6eps() { return 3.65002414998885671e-08; }
  static GN_HD double sqrt3eps() { return 2.5809568279517849e-8; }
  static GN_HD double e() { return 2.718281828459045235360287471352662498; }
  static GN_HD double pio2_lo() { return 6.1232339957367659e-17; }
};

// ---- parts, predicates, truth ------------------------------------------------------------
template <class C> GN_HD GN_CR(C) gn_real(C z) { return z.re; }
template <class C> GN_HD GN_CR(C) gn_imag(C z) { return z.im; }
template <class C> GN_HD GN_CB(C) gn_isnan(C z) { return gn_isnan(z.re) || gn_isnan(z.im); }
template <class C> GN_HD GN_CB(C) gn_isinf(C z) { return gn_isinf(z.re) || gn_isinf(z.im); }
template <class C> GN_HD GN_CB(C) gn_isfinite(C z) {
  return gn_isfinite(z.re) && gn_isfinite(z.im);
}
template <class C> GN_HD GN_CB(C) gn_nonzero(C z) { return z.re != 0 || z.im != 0; }

// ---- comparisons: lexicographic, with NumPy's NaN rules --------------------------------------
template <class C> GN_HD GN_CB(C) gn_equal(C a, C b) { return a.re == b.re && a.im == b.im; }
template <class C> GN_HD GN_CB(C) gn_not_equal(C a, C b) { return a.re != b.re || a.im != b.im; }
template <class C> GN_HD GN_CB(C) gn_greater(C a, C b) {
  return (a.re > b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im > b.im);
}
template <class C> GN_HD GN_CB(C) gn_greater_equal(C a, C b) {
  return (a.re > b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im >= b.im);
}
template <class C> GN_HD GN_CB(C) gn_less(C a, C b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
}
template <class C> GN_HD GN_CB(C) gn_less_equal(C a, C b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);
}
template <class C> GN_HD GN_C(C) gn_maximum(C a, C b) {
  return (gn_isnan(a) || gn_greater_equal(a, b)) ? a : b;
}
template <class C> GN_HD GN_C(C) gn_minimum(C a, C b) {
  return (gn_isnan(a) || gn_less_equal(a, b)) ? a : b;
}
template <class C> GN_HD GN_C(C) gn_fmax(C a, C b) {
  return (gn_isnan(b) || gn_greater_equal(a, b)) ? a : b;
}
template <class C> GN_HD GN_C(C) gn_fmin(C a, C b) {
  return (gn_isnan(b) || gn_less_equal(a, b)) ? a : b;
}

// ---- arithmetic ----------------------------------------------------------------------------
template <class C> GN_HD GN_C(C) gn_add(C a, C b) { return gn_cx<C>(a.re + b.re, a.im + b.im); }
template <class C> GN_HD GN_C(C) gn_subtract(C a, C b) {
  return gn_cx<C>(a.re - b.re, a.im - b.im);
}
template <class C> GN_HD GN_C(C) gn_multiply(C a, C b) {
  return gn_cx<C>(gn_fma(a.re, b.re, -gn_mul_rn(a.im, b.im)),
                  gn_fma(a.re, b.im, gn_mul_rn(a.im, b.re)));
}
template <class C> GN_HD GN_C(C) gn_square(C a) { return gn_multiply(a, a); }
// NumPy's scalar complex product (npy_math_complex cmul: no fused multiply-add)
template <class C> GN_HD C gn_cmul_(C a, C b) {
  return gn_cx<C>(gn_mul_rn(a.re, b.re) - gn_mul_rn(a.im, b.im),
                  gn_mul_rn(a.re, b.im) + gn_mul_rn(a.im, b.re));
}
// C99 complex product with Annex G's recovery of infinities from NaN results (C11 G.5.1)
template <class C> GN_HD C gn_cmul_c99_(C z, C w) {
  typedef GN_CR(C) R;
  R a = z.re, b = z.im, c = w.re, d = w.im;
  R ac = a * c, bd = b * d, ad = a * d, bc = b * c, x = ac - bd, y = ad + bc;
  if (x != x && y != y) {
    bool re = false;
    if (gn_isinf(a) || gn_isinf(b)) {
      a = gn_copysign(gn_isinf(a) ? (R)1 : (R)0, a); b = gn_copysign(gn_isinf(b) ? (R)1 : (R)0, b);
      if (c != c) c = gn_copysign((R)0, c);
      if (d != d) d = gn_copysign((R)0, d);
      re = true;
    }
    if (gn_isinf(c) || gn_isinf(d)) {
      c = gn_copysign(gn_isinf(c) ? (R)1 : (R)0, c); d = gn_copysign(gn_isinf(d) ? (R)1 : (R)0, d);
      if (a != a) a = gn_copysign((R)0, a);
      if (b != b) b = gn_copysign((R)0, b);
      re = true;
    }
    if (!re && (gn_isinf(ac) || gn_isinf(bd) || gn_isinf(ad) || gn_isinf(bc))) {
      if (a != a) a = gn_copysign((R)0, a);
      if (b != b) b = gn_copysign((R)0, b);
      if (c != c) c = gn_copysign((R)0, c);
      if (d != d) d = gn_copysign((R)0, d);
      re = true;
    }
    if (re) {
      x = gn_fc<R>::inf() * (a * c - b * d);
      y = gn_fc<R>::inf() * (a * d + b * c);
    }
  }
  return gn_cx<C>(x, y);
}
// NumPy's complex division (Smith's method; x/0 gives inf/nan componentwise)
template <class C> GN_HD GN_C(C) gn_divide(C a, C b) {
  typedef GN_CR(C) R;
  R abr = gn_fabs(b.re), abi = gn_fabs(b.im);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return gn_cx<C>(a.re / abr, a.im / abi);
    R rat = b.im / b.re, scl = (R)1 / (b.re + gn_mul_rn(b.im, rat));
    return gn_cx<C>((a.re + gn_mul_rn(a.im, rat)) * scl, (a.im - gn_mul_rn(a.re, rat)) * scl);
  }
  R rat = b.re / b.im, scl = (R)1 / (b.im + gn_mul_rn(b.re, rat));
  return gn_cx<C>((gn_mul_rn(a.re, rat) + a.im) * scl, (gn_mul_rn(a.im, rat) - a.re) * scl);
}
template <class C> GN_HD GN_C(C) gn_negative(C a) { return gn_cx<C>(-a.re, -a.im); }
template <class C> GN_HD GN_C(C) gn_positive(C a) { return a; }
template <class C> GN_HD GN_C(C) gn_conjugate(C a) { return gn_cx<C>(a.re, -a.im); }
template <class C> GN_HD GN_CR(C) gn_absolute(C a) { return gn_hypot(a.re, a.im); }
template <class C> GN_HD GN_C(C) gn_reciprocal(C a) {
  typedef GN_CR(C) R;
  if (gn_fabs(a.im) <= gn_fabs(a.re)) {
    R r = a.im / a.re, d = a.re + gn_mul_rn(a.im, r);
    return gn_cx<C>((R)1 / d, -r / d);
  }
  R r = a.re / a.im, d = gn_mul_rn(a.re, r) + a.im;
  return gn_cx<C>(r / d, (R)-1 / d);
}
// sign: z / |z|; 0 for 0; NaN for NaN; an infinite part gives its unit direction
template <class C> GN_HD GN_C(C) gn_sign(C a) {
  typedef GN_CR(C) R; typedef gn_fc<R> FC;
  R ab = gn_hypot(a.re, a.im);
  if (ab != ab) return gn_cx<C>(FC::nan(), FC::nan());
  if (gn_isinf(ab)) {
    if (gn_isinf(a.re)) {
      if (gn_isinf(a.im)) return gn_cx<C>(FC::nan(), FC::nan());
      return gn_cx<C>(a.re > 0 ? (R)1 : (R)-1, (R)0);
    }
    return gn_cx<C>((R)0, a.im > 0 ? (R)1 : (R)-1);
  }
  if (ab == 0) return gn_cx<C>((R)0, (R)0);
  return gn_cx<C>(a.re / ab, a.im / ab);
}
template <class C> GN_HD GN_C(C) gn_rint(C a) { return gn_cx<C>(gn_rint(a.re), gn_rint(a.im)); }

// ---- exp, log, sqrt ------------------------------------------------------------------------
// exp(x) * (cos y, sin y) * 2^expt without overflowing exp(x) (msun __ldexp_cexp)
template <class R> GN_HD typename gn_ck<R>::C gn_cexp_scaled_(R x, R y, int expt) {
  typedef gn_ck<R> K;
  const R kln2 = (R)K::cexp_k * gn_fc<R>::loge2();
  int ex, exc, exs;
  R mant = gn_frexp(gn_exp(x - kln2), &ex);
  R mc = gn_frexp(gn_cos(y), &exc), ms = gn_frexp(gn_sin(y), &exs);
  expt += ex + K::cexp_k;
  return gn_cx<typename K::C>(gn_ldexp(mant * mc, expt + exc), gn_ldexp(mant * ms, expt + exs));
}
template <class C> GN_HD GN_C(C) gn_exp(C z) {
  typedef GN_CR(C) R; typedef gn_ck<R> K; typedef gn_fc<R> FC;
  R r = z.re, i = z.im;
  if (gn_isfinite(r)) {
    if (r >= K::cexp_lo() && r <= K::cexp_hi()) return gn_cexp_scaled_(r, i, 0);
    R x = gn_exp(r);
    if (gn_isfinite(i)) {
      if (i == 0) return gn_cx<C>(x, i);
      return gn_cx<C>(x * gn_cos(i), x * gn_sin(i));
    }
    return gn_cx<C>(FC::nan(), gn_copysign(FC::nan(), i));
  }
  if (r != r) return i == 0 ? z : gn_cx<C>(r, gn_copysign(FC::nan(), i));
  if (r > 0) {  // +inf
    if (i == 0) return z;
    if (gn_isfinite(i)) return gn_cx<C>(r * gn_cos(i), r * gn_sin(i));
    return gn_cx<C>(r, FC::nan());
  }
  if (gn_isfinite(i)) {  // -inf
    R x = gn_exp(r);
    return gn_cx<C>(x * gn_cos(i), x * gn_sin(i));
  }
  return gn_cx<C>((R)0, (R)0);
}
template <class C> GN_HD GN_C(C) gn_log(C z) {
  typedef GN_CR(C) R; typedef gn_ck<R> K; typedef gn_fc<R> FC;
  R ax = gn_fabs(z.re), ay = gn_fabs(z.im), rr;
  if (ax > K::max() / 4 || ay > K::max() / 4) {
    rr = gn_log(gn_hypot(ax / 2, ay / 2)) + FC::loge2();
  } else if (ax < K::min() && ay < K::min()) {
    if (ax > 0 || ay > 0) {
      rr = gn_log(gn_hypot(gn_ldexp(ax, (int)K::mant), gn_ldexp(ay, (int)K::mant))) -
           (R)K::mant * FC::loge2();
    } else {
      rr = -FC::inf();  // log(+-0 +-0i)
    }
  } else {
    R h = gn_hypot(ax, ay);
    if ((R)0.71 <= h && h <= (R)1.73) {
      R am = ax > ay ? ax : ay, an = ax > ay ? ay : ax;
      rr = gn_log1p((am - 1) * (am + 1) + an * an) / 2;
    } else {
      rr = gn_log(h);
    }
  }
  return gn_cx<C>(rr, gn_arctan2(z.im, z.re));
}
template <class C> GN_HD GN_C(C) gn_sqrt(C z) {
  typedef GN_CR(C) R; typedef gn_ck<R> K; typedef gn_fc<R> FC;
  R a = z.re, b = z.im, t;
  if (a == 0 && b == 0) return gn_cx<C>((R)0, b);
  if (gn_isinf(b)) return gn_cx<C>(FC::inf(), b);
  if (a != a) return gn_cx<C>(a, (b - b) / (b - b));
  if (gn_isinf(a)) {
    if (gn_signbit(a)) return gn_cx<C>(gn_fabs(b - b), gn_copysign(a, b));
    return gn_cx<C>(a, gn_copysign(b - b, b));
  }
  // scale to avoid overflow (huge) and loss of precision (subnormal); sqrt halves the exponent
  int scale = 0;
  if (gn_fabs(a) >= K::max() / (R)2.4142135623730950488 ||
      gn_fabs(b) >= K::max() / (R)2.4142135623730950488) {
    a *= (R)0.25; b *= (R)0.25; scale = 1;
  } else if (gn_fabs(a) < K::min() * 4 && gn_fabs(b) < K::min() * 4) {
    a = gn_ldexp(a, 2 * (int)K::mant); b = gn_ldexp(b, 2 * (int)K::mant); scale = -(int)K::mant;
  }
  R re, im;
  if (a >= 0) {
    t = gn_sqrt((a + gn_hypot(a, b)) * (R)0.5);
    re = t; im = b / (2 * t);
  } else {
    t = gn_sqrt((-a + gn_hypot(a, b)) * (R)0.5);
    re = gn_fabs(b) / (2 * t); im = gn_copysign(t, b);
  }
  if (scale) { re = gn_ldexp(re, scale); im = gn_ldexp(im, scale); }
  return gn_cx<C>(re, im);
}
template <class C> GN_HD GN_C(C) gn_exp2(C z) {
  typedef GN_CR(C) R; typedef gn_fc<R> FC;
  return gn_exp(gn_cx<C>(z.re * FC::loge2(), z.im * FC::loge2()));
}
template <class C> GN_HD GN_C(C) gn_log2(C z) {
  typedef GN_CR(C) R; typedef gn_fc<R> FC;
  C w = gn_log(z);
  return gn_cx<C>(w.re * FC::log2e(), w.im * FC::log2e());
}
template <class C> GN_HD GN_C(C) gn_log10(C z) {
  typedef GN_CR(C) R; typedef gn_fc<R> FC;
  C w = gn_log(z);
  return gn_cx<C>(w.re * FC::log10e(), w.im * FC::log10e());
}
template <class C> GN_HD GN_C(C) gn_expm1(C z) {
  typedef GN_CR(C) R;
  R a = gn_sin(z.im / 2);
  return gn_cx<C>(gn_mul_rn(gn_expm1(z.re), gn_cos(z.im)) - gn_mul_rn(2 * a, a),
                  gn_exp(z.re) * gn_sin(z.im));
}
template <class C> GN_HD GN_C(C) gn_log1p(C z) {
  typedef GN_CR(C) R;
  R l = gn_hypot(z.re + 1, z.im);
  return gn_cx<C>(gn_log(l), gn_arctan2(z.im, z.re + 1));
}
// NumPy's npy_cpow: exact repeated products for small integer exponents, else exp(b log a)
template <class C> GN_HD GN_C(C) gn_power(C a, C b) {
  typedef GN_CR(C) R; typedef gn_fc<R> FC;
  R ar = a.re, ai = a.im, br = b.re, bi = b.im;
  if (br == 0 && bi == 0) return gn_cx<C>((R)1, (R)0);
  if (ar == 0 && ai == 0) {
    if (br > 0) return gn_cx<C>((R)0, (R)0);
    return gn_cx<C>(FC::nan(), FC::nan());
  }
  if (bi == 0 && br > -100 && br < 100 && (R)(int)br == br) {
    int n = (int)br;
    if (n == 1) return a;
    if (n == 2) return gn_cmul_(a, a);
    if (n == 3) return gn_cmul_(a, gn_cmul_(a, a));
    if (n < 0) n = -n;
    C acc = gn_cx<C>((R)1, (R)0), p = a;
    int mask = 1;
    while (1) {
      if (n & mask) acc = gn_cmul_(acc, p);
      mask <<= 1;
      if (n < mask) break;
      p = gn_cmul_(p, p);
    }
    if (br < 0) acc = gn_divide(gn_cx<C>((R)1, (R)0), acc);
    return acc;
  }
  return gn_exp(gn_cmul_c99_(b, gn_log(a)));  // glibc's cpow: cexp(b * clog(a))
}

template <class C> GN_HD GN_C(C) gn_float_power(C a, C b) { return gn_power(a, b); }  // 'DD' loop

// ---- hyperbolic and trigonometric (msun) ---------------------------------------------------
template <class C> GN_HD GN_C(C) gn_cosh(C z) {
  typedef GN_CR(C) R; typedef gn_ck<R> K;
  R x = z.re, y = z.im, h, absx;
  bool xf = gn_isfinite(x), yf = gn_isfinite(y);
  if (xf && yf) {
    if (y == 0) return gn_cx<C>(gn_cosh(x), x * y);
    absx = gn_fabs(x);
    if (absx < K::cosh_big()) return gn_cx<C>(gn_cosh(x) * gn_cos(y), gn_sinh(x) * gn_sin(y));
    if (absx < K::cexp_lo()) {
      h = gn_exp(absx) * (R)0.5;
      return gn_cx<C>(h * gn_cos(y), gn_copysign(h, x) * gn_sin(y));
    }
    if (absx < K::cexp_hi()) {
      C w = gn_cexp_scaled_(absx, y, -1);
      return gn_cx<C>(w.re, w.im * gn_copysign((R)1, x));
    }
    h = K::cosh_huge() * x;
    return gn_cx<C>(h * h * gn_cos(y), h * gn_sin(y));
  }
  if (x == 0 && !yf) return gn_cx<C>(y - y, gn_copysign((R)0, x * (y - y)));
  if (y == 0 && !xf) return gn_cx<C>(x * x, gn_copysign((R)0, x) * y);
  if (xf && !yf) return gn_cx<C>(y - y, x * (y - y));
  if (gn_isinf(x)) {
    if (!yf) return gn_cx<C>(x * x, x * (y - y));
    return gn_cx<C>((x * x) * gn_cos(y), x * gn_sin(y));
  }
  return gn_cx<C>((x * x) * (y - y), (x + x) * (y - y));
}
template <class C> GN_HD GN_C(C) gn_sinh(C z) {
  typedef GN_CR(C) R; typedef gn_ck<R> K; typedef gn_fc<R> FC;
  R x = z.re, y = z.im, h, absx;
  bool xf = gn_isfinite(x), yf = gn_isfinite(y);
  if (xf && yf) {
    if (y == 0) return gn_cx<C>(gn_sinh(x), y);
    absx = gn_fabs(x);
    if (absx < K::cosh_big()) return gn_cx<C>(gn_sinh(x) * gn_cos(y), gn_cosh(x) * gn_sin(y));
    if (absx < K::cexp_lo()) {
      h = gn_exp(absx) * (R)0.5;
      return gn_cx<C>(gn_copysign(h, x) * gn_cos(y), h * gn_sin(y));
    }
    if (absx < K::cexp_hi()) {
      C w = gn_cexp_scaled_(absx, y, -1);
      return gn_cx<C>(w.re * gn_copysign((R)1, x), w.im);
    }
    h = K::cosh_huge() * x;
    return gn_cx<C>(h * gn_cos(y), h * h * gn_sin(y));
  }
  if (x == 0 && !yf) return gn_cx<C>(gn_copysign((R)0, x * (y - y)), y - y);
  if (y == 0 && !xf) {
    if (x != x) return z;
    return gn_cx<C>(x, gn_copysign((R)0, y));
  }
  if (xf && !yf) return gn_cx<C>(y - y, x * (y - y));
  if (!xf && x == x) {
    if (!yf) return gn_cx<C>(x * x, x * (y - y));
    return gn_cx<C>(x * gn_cos(y), FC::inf() * gn_sin(y));
  }
  return gn_cx<C>((x * x) * (y - y), (x + x) * (y - y));
}
template <class C> GN_HD GN_C(C) gn_tanh(C z) {
  typedef GN_CR(C) R; typedef gn_ck<R> K;
  R x = z.re, y = z.im;
  if (!gn_isfinite(x)) {
    if (x != x) return gn_cx<C>(x, y == 0 ? y : x * y);
    return gn_cx<C>(gn_copysign((R)1, x),
                    gn_copysign((R)0, gn_isinf(y) ? y : gn_sin(y) * gn_cos(y)));
  }
  if (!gn_isfinite(y)) return gn_cx<C>(x == 0 ? x : y - y, y - y);  // C17: tanh(0+iInf)=0+iNaN
  if (gn_fabs(x) >= K::tanh_huge()) {
    R e = gn_exp(-gn_fabs(x));
    return gn_cx<C>(gn_copysign((R)1, x), 4 * gn_sin(y) * gn_cos(y) * e * e);
  }
  R t = gn_tan(y), beta = 1 + t * t, s = gn_sinh(x), rho = gn_sqrt(1 + s * s);
  R denom = 1 + beta * s * s;
  return gn_cx<C>((beta * rho * s) / denom, t / denom);
}
template <class C> GN_HD GN_C(C) gn_cos(C z) { return gn_cosh(gn_cx<C>(-z.im, z.re)); }
template <class C> GN_HD GN_C(C) gn_sin(C z) {
  typedef GN_CR(C) R;
  if (!gn_isfinite(z.re) && gn_isinf(z.im))  // glibc: sin(+-inf|nan +- i inf) = nan + i inf
    return gn_cx<C>(z.re - z.re, gn_fc<R>::inf());
  C w = gn_sinh(gn_cx<C>(-z.im, z.re));
  return gn_cx<C>(w.im, -w.re);
}
template <class C> GN_HD GN_C(C) gn_tan(C z) {
  C w = gn_tanh(gn_cx<C>(-z.im, z.re));
  return gn_cx<C>(w.im, -w.re);
}

// ---- inverse functions (msun catrig.c: Hull, Fairgrieve & Tang) -----------------------------
template <class R> GN_HD R gn_catrig_f_(R a, R b, R hypot_a_b) {
  if (b < 0) return (hypot_a_b - b) / 2;
  if (b == 0) return a / 2;
  return a * a / (hypot_a_b + b) / 2;
}
template <class R>
GN_HD void gn_catrig_hard_(R x, R y, R* rx, bool* B_usable, R* B, R* sqrt_A2my2, R* new_y) {
  typedef gn_ck<R> K;
  const R eps = K::eps();
  R Rr = gn_hypot(x, y + 1), S = gn_hypot(x, y - 1);
  R A = (Rr + S) / 2;
  if (A < 1) A = 1;
  if (A < (R)10) {
    if (y == 1 && x < eps * eps / 128) {
      *rx = gn_sqrt(x);
    } else if (x >= eps * gn_fabs(y - 1)) {
      R Am1 = gn_catrig_f_(x, 1 + y, Rr) + gn_catrig_f_(x, 1 - y, S);
      *rx = gn_log1p(Am1 + gn_sqrt(Am1 * (A + 1)));
    } else if (y < 1) {
      *rx = x / gn_sqrt((1 - y) * (1 + y));
    } else {
      *rx = gn_log1p((y - 1) + gn_sqrt((y - 1) * (y + 1)));
    }
  } else {
    *rx = gn_log(A + gn_sqrt(A * A - 1));
  }
  *new_y = y;
  if (y < K::four_sqrt_min()) {
    *B_usable = false;
    *sqrt_A2my2 = A * (2 / eps);
    *new_y = y * (2 / eps);
    return;
  }
  *B = y / A;
  *B_usable = true;
  if (*B > (R)0.6417) {
    *B_usable = false;
    if (y == 1 && x < eps / 128) {
      *sqrt_A2my2 = gn_sqrt(x) * gn_sqrt((A + y) / 2);
    } else if (x >= eps * gn_fabs(y - 1)) {
      R Amy = gn_catrig_f_(x, y + 1, Rr) + gn_catrig_f_(x, y - 1, S);
      *sqrt_A2my2 = gn_sqrt(Amy * (A + y));
    } else if (y > 1) {
      *sqrt_A2my2 = x * (4 / eps / eps) * y / gn_sqrt((y + 1) * (y - 1));
      *new_y = y * (4 / eps / eps);
    } else {
      *sqrt_A2my2 = gn_sqrt((1 - y) * (1 + y));
    }
  }
}
template <class R> GN_HD void gn_clog_large_(R x, R y, R* rr, R* ri) {
  typedef gn_ck<R> K;
  R ax = gn_fabs(x), ay = gn_fabs(y);
  if (ax < ay) { R t = ax; ax = ay; ay = t; }
  if (ax > K::max() / 2) *rr = gn_log(gn_hypot(x / K::e(), y / K::e())) + 1;
  else if (ax > K::quarter_sqrt_max() || ay < K::sqrt_min()) *rr = gn_log(gn_hypot(x, y));
  else *rr = gn_log(ax * ax + ay * ay) / 2;
  *ri = gn_arctan2(y, x);
}
template <class C> GN_HD GN_C(C) gn_arccos(C z) {
  typedef GN_CR(C) R; typedef gn_ck<R> K; typedef gn_fc<R> FC;
  R x = z.re, y = z.im, ax = gn_fabs(x), ay = gn_fabs(y), rx, ry, B, sqrt_A2mx2, new_x;
  bool sx = gn_signbit(x), sy = gn_signbit(y), B_usable;
  if (x != x || y != y) {
    if (gn_isinf(x)) return gn_cx<C>(y + y, -FC::inf());
    if (gn_isinf(y)) return gn_cx<C>(x + x, -y);
    if (x == 0) return gn_cx<C>(FC::pi_2(), y + y);
    return gn_cx<C>(FC::nan(), FC::nan());
  }
  if (ax > 1 / K::eps() || ay > 1 / K::eps()) {
    R wx, wy;
    gn_clog_large_(x, y, &wx, &wy);
    rx = gn_fabs(wy);
    ry = wx + FC::loge2();
    return gn_cx<C>(rx, sy ? ry : -ry);
  }
  if (x == 1 && y == 0) return gn_cx<C>((R)0, -y);
  if (ax < K::sqrt6eps() / 4 && ay < K::sqrt6eps() / 4)
    return gn_cx<C>(FC::pi_2() - (x - K::pio2_lo()), -y);
  gn_catrig_hard_(ay, ax, &ry, &B_usable, &B, &sqrt_A2mx2, &new_x);
  if (B_usable) rx = sx ? gn_arccos(-B) : gn_arccos(B);
  else rx = sx ? gn_arctan2(sqrt_A2mx2, -new_x) : gn_arctan2(sqrt_A2mx2, new_x);
  return gn_cx<C>(rx, sy ? ry : -ry);
}
template <class C> GN_HD GN_C(C) gn_arccosh(C z) {
  C w = gn_arccos(z);
  typedef GN_CR(C) R;
  R rx = w.re, ry = w.im;
  if (rx != rx && ry != ry) return gn_cx<C>(ry, rx);
  if (rx != rx) return gn_cx<C>(gn_fabs(ry), rx);
  if (ry != ry) return gn_cx<C>(ry, z.re == 0 ? rx : ry);  // glibc: acosh(0+i NaN) = NaN+i pi/2
  return gn_cx<C>(gn_fabs(ry), gn_copysign(rx, z.im));
}
template <class C> GN_HD GN_C(C) gn_arcsinh(C z) {
  typedef GN_CR(C) R; typedef gn_ck<R> K; typedef gn_fc<R> FC;
  R x = z.re, y = z.im, ax = gn_fabs(x), ay = gn_fabs(y), rx, ry, B, sqrt_A2my2, new_y;
  bool B_usable;
  if (x != x || y != y) {
    if (gn_isinf(x)) return gn_cx<C>(x, y + y);
    if (gn_isinf(y)) return gn_cx<C>(gn_copysign(FC::inf(), x), x + x);  // as glibc
    if (y == 0) return gn_cx<C>(x + x, y);
    return gn_cx<C>(FC::nan(), FC::nan());
  }
  if (ax > 1 / K::eps() || ay > 1 / K::eps()) {
    R wx, wy;
    if (!gn_signbit(x)) gn_clog_large_(x, y, &wx, &wy);
    else gn_clog_large_(-x, -y, &wx, &wy);
    wx += FC::loge2();
    return gn_cx<C>(gn_copysign(wx, x), gn_copysign(wy, y));
  }
  if (x == 0 && y == 0) return z;
  if (ax < K::sqrt6eps() / 4 && ay < K::sqrt6eps() / 4) return z;
  gn_catrig_hard_(ax, ay, &rx, &B_usable, &B, &sqrt_A2my2, &new_y);
  ry = B_usable ? gn_arcsin(B) : gn_arctan2(new_y, sqrt_A2my2);
  return gn_cx<C>(gn_copysign(rx, x), gn_copysign(ry, y));
}
template <class C> GN_HD GN_C(C) gn_arcsin(C z) {
  C w = gn_arcsinh(gn_cx<C>(z.im, z.re));
  return gn_cx<C>(w.im, w.re);
}
// Re(1 / (x + iy)) without spurious underflow / overflow (x, y not NaN, one of them huge)
template <class R> GN_HD R gn_real_part_reciprocal_(R x, R y) {
  typedef gn_ck<R> K;
  int ix = K::bexp(x), iy = K::bexp(y);
  if (ix - iy >= (int)K::cutoff || gn_isinf(x)) return 1 / x;
  if (iy - ix >= (int)K::cutoff) return x / y / y;
  if (ix <= (int)K::bias + (int)K::maxexp / 2 - (int)K::cutoff) return x / (x * x + y * y);
  R scale = gn_ldexp((R)1, (int)K::bias + 1 - ix);
  x *= scale;
  y *= scale;
  return x / (x * x + y * y) * scale;
}
template <class C> GN_HD GN_C(C) gn_arctanh(C z) {
  typedef GN_CR(C) R; typedef gn_ck<R> K; typedef gn_fc<R> FC;
  R x = z.re, y = z.im, ax = gn_fabs(x), ay = gn_fabs(y), rx, ry;
  if (y == 0 && ax <= 1) return gn_cx<C>(gn_arctanh(x), y);
  if (x == 0) return gn_cx<C>(x, gn_arctan(y));
  if (x != x || y != y) {
    if (gn_isinf(x)) return gn_cx<C>(gn_copysign((R)0, x), y + y);
    if (gn_isinf(y)) return gn_cx<C>(gn_copysign((R)0, x), gn_copysign(FC::pi_2(), y));
    return gn_cx<C>(FC::nan(), FC::nan());
  }
  if (ax > 1 / K::eps() || ay > 1 / K::eps())
    return gn_cx<C>(gn_real_part_reciprocal_(x, y), gn_copysign(FC::pi_2(), y));
  if (ax < K::sqrt3eps() / 2 && ay < K::sqrt3eps() / 2) return z;
  if (ax == 1 && ay < K::eps()) {
    rx = (FC::loge2() - gn_log(ay)) / 2;
  } else {
    R t = ax - 1, ss = ay < K::sqrt_min() ? t * t : t * t + ay * ay;
    rx = gn_log1p(4 * ax / ss) / 4;
  }
  if (ax == 1) ry = gn_arctan2((R)2, -ay) / 2;
  else if (ay < K::eps()) ry = gn_arctan2(2 * ay, (1 - ax) * (1 + ax)) / 2;
  else ry = gn_arctan2(2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;
  return gn_cx<C>(gn_copysign(rx, x), gn_copysign(ry, y));
}
template <class C> GN_HD GN_C(C) gn_arctan(C z) {
  C w = gn_arctanh(gn_cx<C>(z.im, z.re));
  return gn_cx<C>(w.im, w.re);
}

#endif  // GN_COMPLEX_CUH

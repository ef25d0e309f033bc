// gn_core.cuh -- gnumpy's core kernel helpers: scalar type aliases, bit casts, float16
// conversion, integer traits and NumPy-semantics casts (gn_cast).  Included in every kernel.
//
// Compiles under NVRTC (no headers: CUDA math functions are builtins) and under g++ on the
// host (tests/kernels_host builds it to check every helper against NumPy).
//
// float16 convention: float16 values are STORED as gn_f16s (the IEEE binary16 bits in an
// unsigned short) and COMPUTED as float.  Load with gn_h2f, store with gn_f2h (from float) or
// gn_d2h (from double: one rounding, never via float).  NumPy rounds every float16 op's result
// to half, so a fused chain must apply gn_rh (round to the nearest half value, kept as float)
// after every float16 op, or store through gn_f2h.
#ifndef GN_CORE_CUH
#define GN_CORE_CUH

#ifndef __CUDACC_RTC__
#include <cmath>
#include <cstdint>
#endif
#ifndef __CUDACC__
#define __host__
#define __device__
#endif
#define GN_HD __host__ __device__ inline
// Not inlined: NVRTC 13 never finishes optimizing a vectorized, unrolled loop that inlines
// floor_divide followed by remainder on ints ((x // 3) % 2, found by the indexing tests).
#ifdef __CUDACC__
#define GN_HD_NOINLINE __host__ __device__ __noinline__
#else
#define GN_HD_NOINLINE __attribute__((noinline))
#endif

typedef bool gn_bool;
typedef signed char gn_i8;
typedef short gn_i16;
typedef int gn_i32;
typedef long long gn_i64;
typedef unsigned char gn_u8;
typedef unsigned short gn_u16;
typedef unsigned int gn_u32;
typedef unsigned long long gn_u64;
typedef unsigned short gn_f16s;
typedef float gn_f32;
typedef double gn_f64;

// complex64 / complex128: NumPy's memory layout (re, im); operations live in gn_complex.cuh.
struct alignas(8) gn_c64 { float re, im; typedef float real_t; };
struct alignas(16) gn_c128 { double re, im; typedef double real_t; };

// ---- bit casts -----------------------------------------------------------------------------
GN_HD unsigned gn_fbits(float x) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(x);
#else
  unsigned u; __builtin_memcpy(&u, &x, 4); return u;
#endif
}
GN_HD float gn_bitsf(unsigned u) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(u);
#else
  float x; __builtin_memcpy(&x, &u, 4); return x;
#endif
}
GN_HD unsigned long long gn_dbits(double x) {
#ifdef __CUDA_ARCH__
  return (unsigned long long)__double_as_longlong(x);
#else
  unsigned long long u; __builtin_memcpy(&u, &x, 8); return u;
#endif
}
GN_HD double gn_bitsd(unsigned long long u) {
#ifdef __CUDA_ARCH__
  return __longlong_as_double((long long)u);
#else
  double x; __builtin_memcpy(&x, &u, 8); return x;
#endif
}
GN_HD float gn_inff() { return gn_bitsf(0x7f800000u); }
GN_HD float gn_nanf() { return gn_bitsf(0x7fc00000u); }
GN_HD double gn_inf() { return gn_bitsd(0x7ff0000000000000ull); }
GN_HD double gn_nan() { return gn_bitsd(0x7ff8000000000000ull); }

// ---- float16 <-> float / double (round to nearest even; inf, nan, subnormals exact) --------
GN_HD float gn_h2f(unsigned short h) {
#ifdef __CUDA_ARCH__
  // the hardware conversions canonicalize NaN; NumPy keeps the payload (its top bits when
  // narrowing), which byteswap/view/tobytes expose: NaNs take the bit path below
  float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  if ((h & 0x7fffu) > 0x7c00u)
    f = gn_bitsf(((unsigned)(h & 0x8000u) << 16) | 0x7f800000u | ((unsigned)(h & 0x3ffu) << 13));
  return f;
#else
  unsigned s = (unsigned)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1fu) return gn_bitsf(s | 0x7f800000u | (m << 13));
  if (e == 0) {  // zero or subnormal: m * 2^-24 is exact in float
    float v = (float)m * 5.9604644775390625e-08f;
    return s ? -v : v;
  }
  return gn_bitsf(s | ((e + 112u) << 23) | (m << 13));
#endif
}
GN_HD unsigned short gn_f2h(float x) {
#ifdef __CUDA_ARCH__
  unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
  if (x != x) {
    const unsigned f = gn_fbits(x), r = 0x7c00u + ((f & 0x7fffffu) >> 13);
    h = (unsigned short)(((f >> 16) & 0x8000u) | (r == 0x7c00u ? 0x7c01u : r));
  }
  return h;
#else
  unsigned f = gn_fbits(x), s = (f >> 16) & 0x8000u, a = f & 0x7fffffffu;
  if (a >= 0x7f800000u) {                      // inf / nan (NumPy keeps the payload's top bits)
    if (a == 0x7f800000u) return (unsigned short)(s | 0x7c00u);
    unsigned r = 0x7c00u + ((a & 0x7fffffu) >> 13);
    return (unsigned short)(s | (r == 0x7c00u ? 0x7c01u : r));
  }
  if (a >= 0x477ff000u) return (unsigned short)(s | 0x7c00u);  // >= 65520 rounds to inf
  if (a < 0x38800000u) {                                        // half subnormal or zero
    if (a <= 0x33000000u) return (unsigned short)s;             // <= 2^-25 rounds to 0
    unsigned e = a >> 23, m = (a & 0x7fffffu) | 0x800000u, sh = 126u - e;
    unsigned r = m >> sh, rem = m & ((1u << sh) - 1u), half = 1u << (sh - 1u);
    if (rem > half || (rem == half && (r & 1u))) r++;
    return (unsigned short)(s | r);
  }
  unsigned r = a - 0x38000000u, low = r & 0x1fffu;
  r >>= 13;
  if (low > 0x1000u || (low == 0x1000u && (r & 1u))) r++;
  return (unsigned short)(s | r);
#endif
}
GN_HD unsigned short gn_d2h(double x) {
#ifdef __CUDA_ARCH__
  unsigned short h; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(x));
  if (x != x) {
    const unsigned long long d = gn_dbits(x);
    const unsigned r = 0x7c00u + (unsigned)((d & 0xfffffffffffffull) >> 42);
    h = (unsigned short)(((unsigned)(d >> 48) & 0x8000u) | (r == 0x7c00u ? 0x7c01u : r));
  }
  return h;
#else
  unsigned long long d = gn_dbits(x), a = d & 0x7fffffffffffffffull;
  unsigned s = (unsigned)(d >> 48) & 0x8000u;
  if (a >= 0x7ff0000000000000ull) {
    if (a == 0x7ff0000000000000ull) return (unsigned short)(s | 0x7c00u);
    unsigned r = 0x7c00u + (unsigned)((a & 0xfffffffffffffull) >> 42);
    return (unsigned short)(s | (r == 0x7c00u ? 0x7c01u : r));
  }
  if (a >= 0x40effe0000000000ull) return (unsigned short)(s | 0x7c00u);  // >= 65520
  if (a < 0x3f10000000000000ull) {                                        // < 2^-14
    if (a <= 0x3e60000000000000ull) return (unsigned short)s;             // <= 2^-25
    unsigned long long e = a >> 52, m = (a & 0xfffffffffffffull) | (1ull << 52);
    unsigned long long sh = 1051ull - e, r = m >> sh, rem = m & ((1ull << sh) - 1ull),
                       half = 1ull << (sh - 1ull);
    if (rem > half || (rem == half && (r & 1ull))) r++;
    return (unsigned short)(s | (unsigned)r);
  }
  unsigned long long r = a - 0x3f00000000000000ull, low = r & 0x3ffffffffffull;
  r >>= 42;
  if (low > 0x20000000000ull || (low == 0x20000000000ull && (r & 1ull))) r++;
  return (unsigned short)(s | (unsigned)r);
#endif
}
// Round a float to the nearest float16 value (result kept as float).
GN_HD float gn_rh(float x) { return gn_h2f(gn_f2h(x)); }

// ---- traits --------------------------------------------------------------------------------
// gn_ti<T>: integers and bool (t = T: also the SFINAE hook of the integer overloads);
// u = same-width unsigned, w = unsigned type >= int used for wrapping arithmetic.
template <class T> struct gn_ti {};
#define GN_TI_(T, U, W, S, LO, HI)                                                      \
  template <> struct gn_ti<T> {                                                         \
    typedef T t; typedef U u; typedef W w;                                              \
    enum { sgn = S, bits = (int)sizeof(T) * 8 };                                        \
    static GN_HD T lo() { return LO; }                                                  \
    static GN_HD T hi() { return HI; }                                                  \
  };
GN_TI_(bool, unsigned char, unsigned, 0, false, true)
GN_TI_(signed char, unsigned char, unsigned, 1, -128, 127)
GN_TI_(short, unsigned short, unsigned, 1, -32768, 32767)
GN_TI_(int, unsigned, unsigned, 1, -2147483647 - 1, 2147483647)
GN_TI_(long long, unsigned long long, unsigned long long, 1, -9223372036854775807LL - 1,
       9223372036854775807LL)
GN_TI_(long, unsigned long, unsigned long long, 1, -(long)(~0ul >> 1) - 1, (long)(~0ul >> 1))
GN_TI_(unsigned char, unsigned char, unsigned, 0, 0, 255)
GN_TI_(unsigned short, unsigned short, unsigned, 0, 0, 65535)
GN_TI_(unsigned, unsigned, unsigned, 0, 0u, 4294967295u)
GN_TI_(unsigned long long, unsigned long long, unsigned long long, 0, 0ull,
       18446744073709551615ull)
GN_TI_(unsigned long, unsigned long, unsigned long long, 0, 0ul, ~0ul)
#undef GN_TI_
// gn_tf<T>: float and double (t = T).  gn_tr<T>: every real type (ints, bool, float, double).
template <class T> struct gn_tf {};
template <> struct gn_tf<float> { typedef float t; };
template <> struct gn_tf<double> { typedef double t; };
template <class T> struct gn_tr : gn_ti<T> {};
template <> struct gn_tr<float> { typedef float t; };
template <> struct gn_tr<double> { typedef double t; };
// gn_tc<C>: the complex types (r = the real component type).
template <class C> struct gn_tc {};
template <> struct gn_tc<gn_c64> { typedef gn_c64 t; typedef float r; };
template <> struct gn_tc<gn_c128> { typedef gn_c128 t; typedef double r; };

// ---- casts with NumPy semantics --------------------------------------------------------------
// gn_cast<To>(x) for To, From in {bool, the integers, float, double, gn_c64, gn_c128}
// (float16 goes through float: gn_cast<To>(gn_h2f(h)); to float16 use gn_to_f16).
//   to bool: x != 0 (NaN -> true; complex: re != 0 || im != 0)
//   complex -> real: the real part; real -> complex: imaginary part 0
//   int -> narrower int: two's-complement wraparound (as NumPy)
//   float -> int: truncation toward zero for in-range values.
// Note: out-of-range and NaN float -> int casts are implementation-defined in NumPy (the Array
// API leaves them undefined).  gnumpy DEFINES them like C compilers lower NumPy's casts:
// int8/int16/uint8/uint16 targets convert through int32 and keep the low bits (300.0 -> int8
// is 44, as NumPy), uint32 through int64 (-1.0 -> 4294967295), uint64 through int64 below
// 2^63; the wide conversion itself saturates and maps NaN to 0 (NumPy on x86-64 gives INT_MIN
// there instead).
template <class To, class F> GN_HD To gn_sat(F x) {
  if (!(x == x)) return (To)0;
  if (x <= (F)gn_ti<To>::lo()) return gn_ti<To>::lo();  // lo() is 0 or -2^(n-1): exact in F
  if (x >= (F)gn_ti<To>::hi()) return gn_ti<To>::hi();  // (F)hi() is exact or rounds up to 2^n
  return (To)x;
}
template <class To> struct gn_f2i {
  template <class F> static GN_HD To f(F x) {
    if (sizeof(To) < 4) return (To)gn_sat<int>(x);                  // low bits of int32
    if (sizeof(To) == 4 && !gn_ti<To>::sgn) return (To)gn_sat<long long>(x);
    if (sizeof(To) == 8 && !gn_ti<To>::sgn)
      return x >= (F)9223372036854775808.0 ? (To)gn_sat<unsigned long long>(x)
                                            : (To)gn_sat<long long>(x);
    return gn_sat<To>(x);
  }
};
template <class To> struct gn_kind { enum { k = 0 }; };  // integers
template <> struct gn_kind<bool> { enum { k = 1 }; };
template <> struct gn_kind<float> { enum { k = 2 }; };
template <> struct gn_kind<double> { enum { k = 2 }; };
template <> struct gn_kind<gn_c64> { enum { k = 3 }; };
template <> struct gn_kind<gn_c128> { enum { k = 3 }; };
template <class To, int K = gn_kind<To>::k> struct gn_cv;
template <class To> struct gn_cv<To, 0> {
  template <class F> static GN_HD To f(F x) { return (To)x; }
  static GN_HD To f(float x) { return gn_f2i<To>::f(x); }
  static GN_HD To f(double x) { return gn_f2i<To>::f(x); }
  static GN_HD To f(gn_c64 x) { return gn_f2i<To>::f(x.re); }
  static GN_HD To f(gn_c128 x) { return gn_f2i<To>::f(x.re); }
};
template <class To> struct gn_cv<To, 1> {
  template <class F> static GN_HD bool f(F x) { return x != 0; }
  static GN_HD bool f(bool x) { return x; }
  static GN_HD bool f(gn_c64 x) { return x.re != 0 || x.im != 0; }
  static GN_HD bool f(gn_c128 x) { return x.re != 0 || x.im != 0; }
};
template <class To> struct gn_cv<To, 2> {
  template <class F> static GN_HD To f(F x) { return (To)x; }
  static GN_HD To f(gn_c64 x) { return (To)x.re; }
  static GN_HD To f(gn_c128 x) { return (To)x.re; }
};
template <class To> struct gn_cv<To, 3> {
  typedef typename gn_tc<To>::r R;
  template <class F> static GN_HD To f(F x) { To r; r.re = (R)x; r.im = (R)0; return r; }
  static GN_HD To f(gn_c64 x) { To r; r.re = (R)x.re; r.im = (R)x.im; return r; }
  static GN_HD To f(gn_c128 x) { To r; r.re = (R)x.re; r.im = (R)x.im; return r; }
};
template <class To, class From> GN_HD To gn_cast(From x) { return gn_cv<To>::f(x); }

// Any supported type -> float16 bits, rounding once (double sources go straight to half).
template <class F> GN_HD unsigned short gn_to_f16(F x) { return gn_f2h(gn_cast<float>(x)); }
GN_HD unsigned short gn_to_f16(double x) { return gn_d2h(x); }
GN_HD unsigned short gn_to_f16(gn_c128 x) { return gn_d2h(x.re); }

#endif  // GN_CORE_CUH

// emu_rt.h -- CUDA device code on the host (gnumpy's CUDA backend emulator).
//
// A kernel's NVRTC source is compiled with g++ after this header.  A launch runs the grid's
// blocks one after another; a block's threads either run one after another (kernels
// without block- or warp-level cooperation: "serial" mode) or as fibers (ucontext) on one
// OS thread, switched at every __syncthreads / warp collective ("fiber" mode).  Shared
// memory is `static` (one copy, shared by the fibers of the block running), atomics are
// plain read-modify-writes (fibers never preempt each other), fences are no-ops.
#include <cstdint>
#include <cmath>
#include <math.h>
#include <cstring>
#include <cstdlib>
#include <cstdio>
#include <utility>
#include <type_traits>
#include <ucontext.h>
#include <sys/mman.h>

struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };

struct gn_emu_thread {
  uint3 tid;
  unsigned lin;          // linear thread index in the block
  int state;             // 0 runnable, 1 at a block barrier, 2 at a warp barrier, 3 done
  unsigned mask;         // the lanes a warp barrier waits for
  ucontext_t ctx;
};

static gn_emu_thread gn_emu_serial_thr;
static gn_emu_thread* gn_emu_cur = &gn_emu_serial_thr;
static uint3 blockIdx;
static dim3 blockDim, gridDim;
static const int warpSize = 32;
#define threadIdx (gn_emu_cur->tid)

// ---- qualifiers -------------------------------------------------------------------------
#define __global__
#define __host__
#define __device__
#define __launch_bounds__(...)
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __shared__ static
#define __constant__ static
#define __managed__

// ---- fiber state --------------------------------------------------------------------------
static int gn_emu_fibers = 0;          // set at load: the kernel cooperates (fiber mode)
static gn_emu_thread* gn_emu_thr = nullptr;
static unsigned gn_emu_nthr = 0, gn_emu_cap = 0;
static char* gn_emu_stacks = nullptr;
static const size_t GN_EMU_STACK = 256 * 1024;
static ucontext_t gn_emu_main;
static unsigned char gn_emu_xchg[1024][16];   // per-thread exchange slots (collectives)
static int gn_emu_err = 0;                     // 1 deadlock, 2 collective in serial mode
static int gn_emu_warn = 0;                    // bit 1: a barrier met with exited threads;
                                               // bit 2: a shuffle read an exited lane
static char gn_emu_msg[256];

static void gn_emu_fail(int code, const char* msg) {
  if (!gn_emu_err) { gn_emu_err = code; snprintf(gn_emu_msg, sizeof gn_emu_msg, "%s", msg); }
}

static inline void gn_emu_wait(int kind, unsigned mask = 0xffffffffu) {   // block (1) or warp (2)
  if (!gn_emu_fibers) {
    if (gn_emu_nthr == 1) return;
    gn_emu_fail(2, "a collective (__syncthreads/__shfl) in a kernel run serially");
    return;
  }
  gn_emu_thread* t = gn_emu_cur;
  t->state = kind;
  t->mask = mask;
  swapcontext(&t->ctx, &gn_emu_main);
}

static inline void __syncthreads() { gn_emu_wait(1); }
static inline void __syncwarp(unsigned mask = 0xffffffffu) { gn_emu_wait(2, mask); }
static inline void __threadfence() {}
static inline void __threadfence_block() {}
static inline void __threadfence_system() {}

static inline unsigned gn_emu_lane() { return gn_emu_cur->lin & 31u; }
static inline unsigned gn_emu_wbase() { return gn_emu_cur->lin & ~31u; }
static inline bool gn_emu_live(unsigned lin) {
  if (lin >= gn_emu_nthr) return false;
  if (!gn_emu_fibers) return lin == gn_emu_cur->lin;
  return gn_emu_thr[lin].state != 3;
}

template <class T> static inline T gn_emu_exchange(T v, unsigned src_lin, bool own) {
  static_assert(sizeof(T) <= 16, "shuffle of a type over 16 bytes");
  const unsigned me = gn_emu_cur->lin;
  memcpy(gn_emu_xchg[me], &v, sizeof(T));
  gn_emu_wait(2);
  T r = v;
  if (!own) {
    if (gn_emu_live(src_lin)) memcpy(&r, gn_emu_xchg[src_lin], sizeof(T));
    else gn_emu_warn |= 2;
  }
  gn_emu_wait(2);
  return r;
}
template <class T> static inline T __shfl_xor_sync(unsigned mask, T v, int lm, int width = 32) {
  const unsigned lane = gn_emu_lane(), src = lane ^ (unsigned)lm;
  const bool own = (src & ~(unsigned)(width - 1)) > (lane & ~(unsigned)(width - 1)) || src > 31;
  return gn_emu_exchange(v, gn_emu_wbase() + src, own);
}
template <class T> static inline T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = 32) {
  const unsigned lane = gn_emu_lane();
  const int src = (int)lane - (int)d;
  const bool own = src < (int)(lane & ~(unsigned)(width - 1));
  return gn_emu_exchange(v, gn_emu_wbase() + (own ? lane : (unsigned)src), own);
}
template <class T> static inline T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = 32) {
  const unsigned lane = gn_emu_lane(), src = lane + d;
  const bool own = src >= (lane & ~(unsigned)(width - 1)) + (unsigned)width;
  return gn_emu_exchange(v, gn_emu_wbase() + (own ? lane : src), own);
}
template <class T> static inline T __shfl_sync(unsigned mask, T v, int s, int width = 32) {
  const unsigned lane = gn_emu_lane();
  const unsigned src = (lane & ~(unsigned)(width - 1)) + ((unsigned)s % (unsigned)width);
  return gn_emu_exchange(v, gn_emu_wbase() + src, false);
}
static inline unsigned __ballot_sync(unsigned mask, int pred) {
  const unsigned me = gn_emu_cur->lin, base = gn_emu_wbase();
  int p = pred != 0;
  memcpy(gn_emu_xchg[me], &p, sizeof p);
  gn_emu_wait(2);
  unsigned r = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (gn_emu_live(base + l)) { int q; memcpy(&q, gn_emu_xchg[base + l], sizeof q); if (q) r |= 1u << l; }
  gn_emu_wait(2);
  return r;
}
static inline unsigned __activemask() {
  unsigned r = 0, base = gn_emu_wbase();
  for (unsigned l = 0; l < 32; ++l) if (gn_emu_live(base + l)) r |= 1u << l;
  return r;
}
static inline int __any_sync(unsigned mask, int p) { return __ballot_sync(mask, p) != 0; }
static inline int __all_sync(unsigned mask, int p) {
  return __ballot_sync(mask, p) == __activemask();
}
static inline int gn_emu_block_count(int pred) {
  const unsigned me = gn_emu_cur->lin;
  int p = pred != 0;
  memcpy(gn_emu_xchg[me], &p, sizeof p);
  gn_emu_wait(1);
  int c = 0;
  for (unsigned l = 0; l < gn_emu_nthr; ++l)
    if (gn_emu_live(l) || l == me) { int q; memcpy(&q, gn_emu_xchg[l], sizeof q); c += q; }
  gn_emu_wait(1);
  return c;
}
static inline int __syncthreads_count(int p) { return gn_emu_block_count(p); }
static inline int __syncthreads_or(int p) { return gn_emu_block_count(p) != 0; }
static inline int __syncthreads_and(int p) {
  return gn_emu_block_count(p) == gn_emu_block_count(1);
}

// ---- atomics (fibers never preempt: plain read-modify-write) ------------------------------
template <class T, class U> static inline T atomicAdd(T* p, U v) { T o = *p; *p = (T)(o + (T)v); return o; }
template <class T, class U> static inline T atomicSub(T* p, U v) { T o = *p; *p = (T)(o - (T)v); return o; }
template <class T, class U> static inline T atomicExch(T* p, U v) { T o = *p; *p = (T)v; return o; }
template <class T, class U> static inline T atomicMin(T* p, U v) { T o = *p; if ((T)v < o) *p = (T)v; return o; }
template <class T, class U> static inline T atomicMax(T* p, U v) { T o = *p; if ((T)v > o) *p = (T)v; return o; }
template <class T, class U> static inline T atomicAnd(T* p, U v) { T o = *p; *p = (T)(o & (T)v); return o; }
template <class T, class U> static inline T atomicOr(T* p, U v) { T o = *p; *p = (T)(o | (T)v); return o; }
template <class T, class U> static inline T atomicXor(T* p, U v) { T o = *p; *p = (T)(o ^ (T)v); return o; }
template <class T, class U, class V> static inline T atomicCAS(T* p, U c, V v) {
  T o = *p; if (o == (T)c) *p = (T)v; return o; }
static inline unsigned atomicInc(unsigned* p, unsigned v) {
  unsigned o = *p; *p = (o >= v) ? 0 : o + 1; return o; }
static inline unsigned atomicDec(unsigned* p, unsigned v) {
  unsigned o = *p; *p = (o == 0 || o > v) ? v : o - 1; return o; }

// ---- intrinsics -----------------------------------------------------------------------------
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16); }
static inline unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32)); }
static inline unsigned __umulhi(unsigned a, unsigned b) {
  return (unsigned)(((unsigned long long)a * b) >> 32); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64); }
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline long long __mul64hi(long long a, long long b) {
  return (long long)(((__int128)a * b) >> 64); }
static inline float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static inline unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static inline float __int_as_float(int u) { float f; memcpy(&f, &u, 4); return f; }
static inline int __float_as_int(float f) { int u; memcpy(&u, &f, 4); return u; }
static inline double __longlong_as_double(long long u) { double f; memcpy(&f, &u, 8); return f; }
static inline long long __double_as_longlong(double f) { long long u; memcpy(&u, &f, 8); return u; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dsub_rn(double a, double b) { return a - b; }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __fdividef(float a, float b) { return a / b; }
static inline float __saturatef(float x) { return x < 0.f ? 0.f : (x > 1.f ? 1.f : (x == x ? x : 0.f)); }
template <class T> static inline T __ldg(const T* p) { return *p; }
template <class T> static inline T __ldcs(const T* p) { return *p; }
template <class T> static inline T __ldcg(const T* p) { return *p; }
template <class T> static inline void __stcs(T* p, T v) { *p = v; }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rcbrt(double x) { return 1.0 / cbrt(x); }
static inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
static inline double sinpi(double x) { return sin(M_PI * x); }
static inline double cospi(double x) { return cos(M_PI * x); }
static inline float sinpif(float x) { return (float)sin(M_PI * (double)x); }
static inline float cospif(float x) { return (float)cos(M_PI * (double)x); }
static inline void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }
static inline void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
static inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
static inline float normcdff(float x) { return 0.5f * erfcf(-x * (float)M_SQRT1_2); }
static inline float saturate(float x) { return __saturatef(x); }

// CUDA's min/max: overloads for every arithmetic pair (floats: fmin/fmax)
template <class A, class B> static inline typename std::common_type<A, B>::type min(A a, B b) {
  typedef typename std::common_type<A, B>::type C;
  if constexpr (std::is_floating_point<C>::value) return fmin((C)a, (C)b);
  else return (C)a < (C)b ? (C)a : (C)b;
}
template <class A, class B> static inline typename std::common_type<A, B>::type max(A a, B b) {
  typedef typename std::common_type<A, B>::type C;
  if constexpr (std::is_floating_point<C>::value) return fmax((C)a, (C)b);
  else return (C)a > (C)b ? (C)a : (C)b;
}
static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
static inline long long llmin(long long a, long long b) { return a < b ? a : b; }
static inline long long llmax(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

// vector types the kernels may name
struct uint2 { unsigned x, y; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
struct alignas(8) float2 { float x, y; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(16) double2 { double x, y; };
struct int2 { int x, y; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(16) ulonglong2 { unsigned long long x, y; };
struct alignas(16) longlong2 { long long x, y; };
static inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d) { return uint4{a, b, c, d}; }
static inline uint2 make_uint2(unsigned a, unsigned b) { return uint2{a, b}; }
static inline float2 make_float2(float a, float b) { return float2{a, b}; }
static inline double2 make_double2(double a, double b) { return double2{a, b}; }
static inline int2 make_int2(int a, int b) { return int2{a, b}; }
static inline dim3 make_dim3(unsigned a, unsigned b, unsigned c) { return dim3{a, b, c}; }

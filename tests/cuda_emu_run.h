// emu_run.h -- appended after a kernel's source: the launch entry points.
template <class F> struct gn_emu_fn;
template <class... A> struct gn_emu_fn<void (*)(A...)> {
  template <size_t... I> static void call(void (*f)(A...), void** p, std::index_sequence<I...>) {
    f(*reinterpret_cast<typename std::remove_cv<typename std::remove_reference<A>::type>::type*>(p[I])...);
  }
  static void go(void (*f)(A...), void** p) { call(f, p, std::index_sequence_for<A...>{}); }
  static void sizes(int* out) { int i = 0; (void)i; ((out[i++] = (int)sizeof(A)), ...); }
  static void kinds(int* out) {   // 1 pointer, 2 floating, 3 integer, 0 other
    int i = 0; (void)i;
    ((out[i++] = std::is_pointer<A>::value ? 1 : std::is_floating_point<A>::value ? 2 :
                 std::is_integral<A>::value ? 3 : 0), ...);
  }
  static constexpr int n = sizeof...(A);
};
typedef decltype(&GN_EMU_KERNEL) gn_emu_kt;
static void** gn_emu_params;
static int gn_emu_rev = 0;
static void gn_emu_body() { gn_emu_fn<gn_emu_kt>::go(GN_EMU_KERNEL, gn_emu_params); }
static void gn_emu_entry() { gn_emu_body(); gn_emu_cur->state = 3; }

extern "C" int gn_emu_nparams() { return gn_emu_fn<gn_emu_kt>::n; }
extern "C" void gn_emu_param_sizes(int* o) { gn_emu_fn<gn_emu_kt>::sizes(o); }
extern "C" void gn_emu_param_kinds(int* o) { gn_emu_fn<gn_emu_kt>::kinds(o); }
extern "C" const char* gn_emu_message() { return gn_emu_msg; }
extern "C" int gn_emu_warnings() { int w = gn_emu_warn; gn_emu_warn = 0; return w; }

static int gn_emu_block() {
  const unsigned nt = gn_emu_nthr;
  for (unsigned i = 0; i < nt; ++i) {
    gn_emu_thread* t = &gn_emu_thr[i];
    t->tid = uint3{i % blockDim.x, (i / blockDim.x) % blockDim.y, i / (blockDim.x * blockDim.y)};
    t->lin = i;
    t->state = 0;
    t->mask = 0xffffffffu;
    getcontext(&t->ctx);
    t->ctx.uc_stack.ss_sp = gn_emu_stacks + (size_t)i * GN_EMU_STACK;
    t->ctx.uc_stack.ss_size = GN_EMU_STACK;
    t->ctx.uc_link = &gn_emu_main;
    makecontext(&t->ctx, gn_emu_entry, 0);
  }
  for (;;) {
    for (unsigned i0 = 0; i0 < nt; ++i0) {
      gn_emu_thread* t = &gn_emu_thr[gn_emu_rev ? nt - 1 - i0 : i0];
      if (t->state == 0) {
        gn_emu_cur = t;
        swapcontext(&gn_emu_main, &t->ctx);
        if (gn_emu_err) { gn_emu_cur = &gn_emu_serial_thr; return gn_emu_err; }
      }
    }
    gn_emu_cur = &gn_emu_serial_thr;
    bool released = false;
    for (unsigned w = 0; w < nt; w += 32) {       // warp barriers: every waited-for lane there
      unsigned waiting = 0, live = 0, mask = 0;
      for (unsigned l = 0; l < 32 && w + l < nt; ++l) {
        const int s = gn_emu_thr[w + l].state;
        if (s != 3) live |= 1u << l;
        if (s == 2) { waiting |= 1u << l; mask |= gn_emu_thr[w + l].mask; }
      }
      if (waiting && ((mask & live) & ~waiting) == 0) {
        for (unsigned l = 0; l < 32 && w + l < nt; ++l)
          if (waiting >> l & 1u) gn_emu_thr[w + l].state = 0;
        released = true;
      }
    }
    if (released) continue;
    unsigned live = 0, at_block = 0;
    for (unsigned i = 0; i < nt; ++i) {
      const int s = gn_emu_thr[i].state;
      live += s != 3;
      at_block += s == 1;
    }
    if (live == 0) return 0;
    if (at_block == live) {
      if (live < nt) gn_emu_warn |= 1;
      for (unsigned i = 0; i < nt; ++i) if (gn_emu_thr[i].state == 1) gn_emu_thr[i].state = 0;
      continue;
    }
    char m[200];
    snprintf(m, sizeof m, "deadlock: %u live threads, %u at __syncthreads, the rest at warp "
             "collectives that never complete", live, at_block);
    gn_emu_fail(1, m);
    return gn_emu_err;
  }
}

extern "C" int gn_emu_launch(void** params, unsigned gx, unsigned gy, unsigned gz,
                             unsigned bx, unsigned by, unsigned bz, int fibers, int rev) {
  gn_emu_err = 0;
  gn_emu_msg[0] = 0;
  gn_emu_fibers = fibers;
  gn_emu_params = params;
  gridDim = dim3{gx, gy, gz};
  blockDim = dim3{bx, by, bz};
  const unsigned nt = bx * by * bz;
  gn_emu_nthr = nt;
  if (nt == 0 || nt > 1024 || gx == 0 || gy == 0 || gz == 0) {
    gn_emu_fail(3, "invalid launch configuration");
    return gn_emu_err;
  }
  if (fibers && gn_emu_cap < nt) {
    if (gn_emu_stacks) munmap(gn_emu_stacks, (size_t)gn_emu_cap * GN_EMU_STACK);
    free(gn_emu_thr);
    gn_emu_cap = 1024;
    gn_emu_thr = (gn_emu_thread*)calloc(gn_emu_cap, sizeof(gn_emu_thread));
    gn_emu_stacks = (char*)mmap(nullptr, (size_t)gn_emu_cap * GN_EMU_STACK, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  }
  gn_emu_rev = rev;
  for (unsigned z0 = 0; z0 < gz; ++z0)
    for (unsigned y0 = 0; y0 < gy; ++y0)
      for (unsigned x0 = 0; x0 < gx; ++x0) {
        const unsigned x = rev ? gx - 1 - x0 : x0, y = rev ? gy - 1 - y0 : y0,
                       z = rev ? gz - 1 - z0 : z0;
        blockIdx = uint3{x, y, z};
        if (fibers) {
          if (gn_emu_block()) return gn_emu_err;
        } else {
          for (unsigned i0 = 0; i0 < nt; ++i0) {
            const unsigned i = rev ? nt - 1 - i0 : i0;
            gn_emu_serial_thr.tid = uint3{i % bx, (i / bx) % by, i / (bx * by)};
            gn_emu_serial_thr.lin = i;
            gn_emu_body();
            if (gn_emu_err) return gn_emu_err;
          }
        }
      }
  return 0;
}

"""CUDA code generation: lowering of scheduled groups to kernel specs, renderers for
elementwise and reduction kernels, the per-op CUDA expression table, NVRTC compilation
and the kernel caches.  Nothing here needs a GPU: kernels render and compile to cubin on
any machine with the NVRTC wheel, which is how CPU-only CI checks them."""

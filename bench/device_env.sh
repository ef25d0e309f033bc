# Sourced by the GPU machine's scripts (and by hand: `. bench/device_env.sh; python3 ...`):
# installs the NVIDIA library bindings the GPU image lacks (nvmath-python, cuda-cccl, a newer
# cuda-pathfinder), carried as wheels in .whl/ (git-ignored; ../shared/notes/vendor-libs.md),
# into /tmp/gnumpy-site once per machine, and exports the environment gnumpy's GPU runs use.
# A fresh machine has none of them: without this, every library call raises
# ModuleNotFoundError (nvmath) and NPBench's library kernels show as errors.
cd "$(dirname "${BASH_SOURCE[0]}")/.." || return 1
if ls .whl/*.whl > /dev/null 2>&1 && ! [ -e /tmp/gnumpy-site/.done ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target /tmp/gnumpy-site .whl/*.whl && touch /tmp/gnumpy-site/.done
fi
[ -d /tmp/gnumpy-site ] && export PYTHONPATH=/tmp/gnumpy-site${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1 GNUMPY_DEVICE=${GNUMPY_DEVICE:-cuda} PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
export GNUMPY_CACHE_DIR=${GNUMPY_CACHE_DIR:-$PWD/.gnc}

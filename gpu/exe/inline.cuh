// Layout `inline`: one .cu file, the kernel (included before this, named
// SL1X_KERNEL) launched with `<<<>>>` from a lambda in main, which owns
// vectors and RAII buffers (the launch is an `invoke`).
#include "typed_launch.cuh"

int main(int argc, char **argv) {
  return sl1x::run(argc, argv,
                   [](const sl1x::Launch &l, const std::vector<sl1x::Value> &values,
                      cudaStream_t stream) { sl1x::launch_typed(SL1X_KERNEL, l, values, stream); });
}

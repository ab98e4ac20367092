// Layout `wrapper`, the kernel's file: a `launch` helper beside the kernel
// (included before this, named SL1X_KERNEL) that owns C++ objects and
// launches with `<<<>>>`; main is in another file (wrapper_main.cpp).
#include "typed_launch.cuh"

void sl1x_launch(const sl1x::Launch &l, const std::vector<sl1x::Value> &values,
                 cudaStream_t stream) {
  std::vector<sl1x::Value> copy(values);
  auto name = std::make_unique<std::string>(SL1X_STRING(SL1X_KERNEL));
  if (copy.empty())
    sl1x::fail(*name + ": no arguments");
  sl1x::launch_typed(SL1X_KERNEL, l, copy, stream);
}

// The `void **` arguments of cudaLaunchKernel and cudaLaunchKernelExC,
// from the host's values: each points at its value's bytes (a number's low
// bytes first, as a 4-byte parameter reads them on little-endian x86-64).
#pragma once

#include "host.h"

const void *sl1x_kernel();

namespace sl1x {

struct RuntimeArgs {
  std::vector<void *> pointers;
  std::vector<uint64_t> numbers;
  std::vector<void *> argv;
  explicit RuntimeArgs(const std::vector<Value> &values)
      : pointers(values.size()), numbers(values.size()), argv(values.size()) {
    for (size_t i = 0; i < values.size(); ++i) {
      pointers[i] = values[i].ptr;
      numbers[i] = values[i].bits;
      argv[i] = values[i].is_pointer ? static_cast<void *>(&pointers[i])
                                     : static_cast<void *>(&numbers[i]);
    }
  }
};

} // namespace sl1x

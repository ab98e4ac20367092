// Layout `runtime`, main: a C++ file that launches the kernel of another
// file (handle.cuh) with cudaLaunchKernel.
#include "runtime_args.h"

int main(int argc, char **argv) {
  return sl1x::run(argc, argv,
                   [](const sl1x::Launch &l, const std::vector<sl1x::Value> &values,
                      cudaStream_t stream) {
                     sl1x::RuntimeArgs args(values);
                     sl1x::check(cudaLaunchKernel(sl1x_kernel(), l.grid, l.block,
                                                  args.argv.data(), l.shared, stream),
                                 "cudaLaunchKernel");
                   });
}

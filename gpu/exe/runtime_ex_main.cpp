// Layout `runtime-ex`, main: a C++ file that launches the kernel of another
// file (handle.cuh) with cudaLaunchKernelExC and a launch configuration.
#include "runtime_args.h"

int main(int argc, char **argv) {
  return sl1x::run(argc, argv,
                   [](const sl1x::Launch &l, const std::vector<sl1x::Value> &values,
                      cudaStream_t stream) {
                     sl1x::RuntimeArgs args(values);
                     cudaLaunchConfig_t config = {};
                     config.gridDim = l.grid;
                     config.blockDim = l.block;
                     config.dynamicSmemBytes = l.shared;
                     config.stream = stream;
                     sl1x::check(cudaLaunchKernelExC(&config, sl1x_kernel(), args.argv.data()),
                                 "cudaLaunchKernelExC");
                   });
}

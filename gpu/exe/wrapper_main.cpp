// Layout `wrapper`, main: a C++ file (compiled by the host compiler) that
// calls the kernel file's launch helper (wrapper.cuh).
#include "host.h"

void sl1x_launch(const sl1x::Launch &l, const std::vector<sl1x::Value> &values,
                 cudaStream_t stream);

int main(int argc, char **argv) { return sl1x::run(argc, argv, sl1x_launch); }

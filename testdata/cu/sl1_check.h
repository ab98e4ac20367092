// Host helpers shared by the test programs: CUDA error checks and a timer.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cuda_runtime.h>
#include <vector>

#define CUDA_CHECK(call)                                                          \
  do {                                                                            \
    cudaError_t err_ = (call);                                                    \
    if (err_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,          \
                   cudaGetErrorString(err_));                                     \
      std::exit(2);                                                               \
    }                                                                             \
  } while (0)

// Milliseconds taken by `launch` (one kernel launch), measured with events.
template <typename F> float time_launch(F launch) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  launch();
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return ms;
}

// Median of `reps` timed launches after one warm-up launch.
template <typename F> float median_ms(F launch, int reps = 10) {
  launch();
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> times;
  for (int r = 0; r < reps; ++r)
    times.push_back(time_launch(launch));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// The block/thread sweep of the S-L1 paper's method: every configuration is
// timed (median of 10) and checked; prints each and the best. `run(blocks,
// threads)` launches once; `check()` compares the last result with the CPU
// reference; `reset()` poisons the output before a configuration.
template <typename Run, typename Check, typename Reset>
int sweep(const char *name, Run run, Check check, Reset reset) {
  const unsigned threads[] = {128, 256, 512, 1024};
  const unsigned blocks[] = {132, 264, 528, 1056, 2112};
  float best = 1e30f;
  unsigned best_b = 0, best_t = 0;
  int failures = 0;
  for (unsigned t : threads)
    for (unsigned b : blocks) {
      reset();
      float ms = median_ms([&] { run(b, t); });
      bool ok = check();
      failures += !ok;
      std::printf("%s sweep %4u x %4u: %8.3f ms %s\n", name, b, t, ms, ok ? "OK" : "MISMATCH");
      if (ms < best) {
        best = ms;
        best_b = b;
        best_t = t;
      }
    }
  std::printf("%s best: %.3f ms at %u x %u, %d mismatching configuration(s)\n", name, best,
              best_b, best_t, failures);
  return failures ? 1 : 0;
}

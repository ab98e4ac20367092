// Does reading matmul's row of `a` 16 B at a time pay? The app's kernel
// (`base`) against the same walk whose inner loop reads four `a` elements
// with one 16 B load where the row is 16 B aligned (`vec_a`), each timed at
// the app's best launches. Build: nvcc -O3 -arch=sm_90 vector.cu -o vector
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>

typedef unsigned long long u64;

extern "C" __global__ void base(const int *__restrict__ a, const int *__restrict__ b,
                                int *__restrict__ c, u64 n, u64 chunk) {
  u64 tid = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  u64 begin = tid * chunk, total = n * n;
  u64 end = begin + chunk < total ? begin + chunk : total;
  for (u64 e = begin; e < end; ++e) {
    u64 row = e / n, col = e % n;
    int acc = 0;
    for (u64 k = 0; k < n; ++k) acc += a[row * n + k] * b[k * n + col];
    c[e] = acc;
  }
}

extern "C" __global__ void vec_a(const int *__restrict__ a, const int *__restrict__ b,
                                 int *__restrict__ c, u64 n, u64 chunk) {
  u64 tid = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  u64 begin = tid * chunk, total = n * n;
  u64 end = begin + chunk < total ? begin + chunk : total;
  for (u64 e = begin; e < end; ++e) {
    u64 row = e / n, col = e % n;
    int acc = 0;
    const int *ar = a + row * n;
    u64 k = 0;
    if (((uintptr_t)ar & 15) == 0) {
      for (; k + 4 <= n; k += 4) {
        int4 v = *(const int4 *)(ar + k);
        acc += v.x * b[k * n + col];
        acc += v.y * b[(k + 1) * n + col];
        acc += v.z * b[(k + 2) * n + col];
        acc += v.w * b[(k + 3) * n + col];
      }
    }
    for (; k < n; ++k) acc += ar[k] * b[k * n + col];
    c[e] = acc;
  }
}

typedef void (*kernel_t)(const int *, const int *, int *, u64, u64);

int main() {
  const u64 n = 1024;
  std::vector<int> ha(n * n), hb(n * n);
  uint32_t s = 7;
  for (auto &x : ha) { s = s * 1664525u + 1013904223u; x = (int)(s >> 28) - 8; }
  for (auto &x : hb) { s = s * 1664525u + 1013904223u; x = (int)(s >> 28) - 8; }
  int *a, *b, *c1, *c2;
  cudaMalloc(&a, 4 * n * n); cudaMalloc(&b, 4 * n * n);
  cudaMalloc(&c1, 4 * n * n); cudaMalloc(&c2, 4 * n * n);
  cudaMemcpy(a, ha.data(), 4 * n * n, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), 4 * n * n, cudaMemcpyHostToDevice);
  int cfg[][2] = {{528, 1024}, {1056, 1024}, {2112, 1024}, {1056, 512}, {2112, 512}, {2112, 256}, {2112, 128}};
  kernel_t ks[] = {base, vec_a};
  const char *names[] = {"base", "vec_a"};
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (auto &cf : cfg) {
    u64 threads = (u64)cf[0] * cf[1];
    u64 chunk = (n * n + threads - 1) / threads;
    float med[2];
    for (int rep_round = 0; rep_round < 1; ++rep_round)
      for (int v = 0; v < 2; ++v) {
        std::vector<float> t;
        for (int r = 0; r < 9; ++r) {
          cudaEventRecord(e0);
          ks[v]<<<cf[0], cf[1]>>>(a, b, v ? c2 : c1, n, chunk);
          cudaEventRecord(e1); cudaEventSynchronize(e1);
          float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);
        }
        std::sort(t.begin(), t.end()); med[v] = t[t.size() / 2];
      }
    std::vector<int> r1(n * n), r2(n * n);
    cudaMemcpy(r1.data(), c1, 4 * n * n, cudaMemcpyDeviceToHost);
    cudaMemcpy(r2.data(), c2, 4 * n * n, cudaMemcpyDeviceToHost);
    printf("%dx%d chunk %llu: %s %.4f ms  %s %.4f ms  (%.2fx)  %s\n", cf[0], cf[1], chunk, names[0], med[0],
           names[1], med[1], med[0] / med[1], r1 == r2 ? "same" : "DIFFERENT");
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}

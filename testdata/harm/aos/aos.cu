// aos (array of structs): the squared length x^2 + y^2 + z^2 + w^2 of each
// point of an array of 16-byte structs (floats holding small integers, so
// every sum is exact with or without fused multiply-adds), each thread a
// contiguous chunk.
struct Point {
  float x, y, z, w;
};

extern "C" __global__ void aos(const Point *__restrict__ points, float *__restrict__ out,
                               unsigned long long n, unsigned long long chunk) {
  unsigned long long tid = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long begin = tid * chunk;
  unsigned long long end = begin + chunk < n ? begin + chunk : n;
  for (unsigned long long i = begin; i < end; ++i) {
    Point p = points[i];
    out[i] = p.x * p.x + p.y * p.y + p.z * p.z + p.w * p.w;
  }
}

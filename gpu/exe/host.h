// The ordinary C++ host of the executable suite (sl1-bench --exes): what a
// CUDA program's main does around its launches, written as users write it
// (std::vector, RAII device buffers, a helper that owns C++ objects), and
// timed as sl1-bench times a PTX launch so that the two compare: outputs
// refilled before each launch, one warm-up, CUDA events around each timed
// launch, the median printed.
//
// The problem comes from a directory sl1-bench writes (gpu/src/exe.rs):
// `spec` (the launch, the buffers, the arguments) and in<i>.bin; the host
// writes out<i>.bin there and prints `median_ms <ms>`. The launch itself is
// the layout's: a callback this file does not see the kernel through.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#define SL1X_STRING_OF(x) #x
#define SL1X_STRING(x) SL1X_STRING_OF(x)

namespace sl1x {

// A kernel argument's value: a device pointer, or a number's bits (a
// float's in the low 32).
struct Value {
  void *ptr = nullptr;
  uint64_t bits = 0;
  bool is_pointer = false;
};

struct Launch {
  dim3 grid;
  dim3 block;
  size_t shared = 0;
};

using LaunchFn = std::function<void(const Launch &, const std::vector<Value> &, cudaStream_t)>;

[[noreturn]] inline void fail(const std::string &what) {
  std::fprintf(stderr, "sl1x: %s\n", what.c_str());
  std::exit(2);
}

inline void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    fail(std::string(what) + ": " + cudaGetErrorString(e));
}

struct DeviceFree {
  void operator()(void *p) const { cudaFree(p); }
};
using DeviceBuffer = std::unique_ptr<void, DeviceFree>;

// cudaMalloc, as programs allocate; SL1X_ALLOC=async takes the stream-ordered
// pool allocator instead (cudaMallocAsync on the null stream), which is how
// sl1-bench's PTX runs allocate (cudarc), to tell the two apart.
inline DeviceBuffer device_buffer(size_t bytes) {
  static const bool pooled = [] {
    const char *env = std::getenv("SL1X_ALLOC");
    return env && std::string(env) == "async";
  }();
  void *p = nullptr;
  if (pooled) {
    check(cudaMallocAsync(&p, std::max<size_t>(bytes, 1), nullptr), "cudaMallocAsync");
    check(cudaStreamSynchronize(nullptr), "cudaMallocAsync");
  } else {
    check(cudaMalloc(&p, std::max<size_t>(bytes, 1)), "cudaMalloc");
  }
  return DeviceBuffer(p);
}

struct Output {
  size_t bytes = 0;
  bool from_input = false; // else filled with `fill` bytes
  uint64_t fill = 0;       // the byte, or the input's index
};

struct Arg {
  std::string kind; // input, output, output-at, u64, u32
  uint64_t a = 0;
  uint64_t b = 0;
};

struct Spec {
  Launch launch;
  int reps = 0;
  std::vector<size_t> inputs;
  std::vector<Output> outputs;
  std::vector<Arg> args;
};

inline Spec read_spec(const std::string &dir) {
  std::ifstream in(dir + "/spec");
  if (!in)
    fail("cannot read " + dir + "/spec");
  Spec spec;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "grid") {
      words >> spec.launch.grid.x >> spec.launch.grid.y;
    } else if (key == "block") {
      words >> spec.launch.block.x >> spec.launch.block.y;
    } else if (key == "shared") {
      words >> spec.launch.shared;
    } else if (key == "reps") {
      words >> spec.reps;
    } else if (key == "input") {
      size_t bytes = 0;
      words >> bytes;
      spec.inputs.push_back(bytes);
    } else if (key == "output") {
      Output o;
      std::string fill;
      words >> o.bytes >> fill >> o.fill;
      o.from_input = fill == "input";
      spec.outputs.push_back(o);
    } else if (key == "arg") {
      Arg a;
      words >> a.kind >> a.a >> a.b;
      spec.args.push_back(a);
    } else if (!key.empty()) {
      fail("spec: unknown line `" + line + "`");
    }
  }
  return spec;
}

inline std::vector<char> read_file(const std::string &path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> data(bytes);
  if (!in.read(data.data(), static_cast<std::streamsize>(bytes)))
    fail("cannot read " + std::to_string(bytes) + " bytes of " + path);
  return data;
}

inline void write_file(const std::string &path, const std::vector<char> &data) {
  std::ofstream out(path, std::ios::binary);
  if (!out.write(data.data(), static_cast<std::streamsize>(data.size())))
    fail("cannot write " + path);
}

struct Stream {
  cudaStream_t s = nullptr;
  Stream() { check(cudaStreamCreate(&s), "cudaStreamCreate"); }
  ~Stream() { cudaStreamDestroy(s); }
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
};

struct Event {
  cudaEvent_t e = nullptr;
  Event() { check(cudaEventCreate(&e), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(e); }
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
};

inline float median(std::vector<float> times) {
  if (times.empty())
    return 0.0f;
  std::sort(times.begin(), times.end());
  size_t mid = times.size() / 2;
  return times.size() % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2.0f;
}

// Runs the problem in argv[1] through `launch`; returns main's status.
inline int run(int argc, char **argv, const LaunchFn &launch) {
  if (argc != 2)
    fail("usage: <exe> <problem directory written by sl1-bench>");
  const std::string dir = argv[1];
  const Spec spec = read_spec(dir);
  std::vector<DeviceBuffer> inputs;
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    std::vector<char> host = read_file(dir + "/in" + std::to_string(i) + ".bin", spec.inputs[i]);
    inputs.push_back(device_buffer(host.size()));
    check(cudaMemcpy(inputs.back().get(), host.data(), host.size(), cudaMemcpyHostToDevice),
          "cudaMemcpy to the device");
  }
  std::vector<DeviceBuffer> outputs;
  for (const Output &o : spec.outputs)
    outputs.push_back(device_buffer(o.bytes));
  std::vector<Value> values;
  for (const Arg &a : spec.args) {
    Value v;
    if (a.kind == "input" || a.kind == "output" || a.kind == "output-at") {
      const auto &buffers = a.kind == "input" ? inputs : outputs;
      if (a.a >= buffers.size())
        fail("spec: argument names buffer " + std::to_string(a.a) + " of " +
             std::to_string(buffers.size()));
      v.ptr = static_cast<char *>(buffers[a.a].get()) + (a.kind == "output-at" ? a.b : 0);
      v.is_pointer = true;
    } else if (a.kind == "u64" || a.kind == "u32") {
      v.bits = a.a;
    } else {
      fail("spec: unknown argument kind " + a.kind);
    }
    values.push_back(v);
  }
  Stream stream;
  Event start, end;
  std::vector<float> times;
  for (int rep = 0; rep <= spec.reps; ++rep) {
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Output &o = spec.outputs[i];
      if (o.from_input)
        check(cudaMemcpyAsync(outputs[i].get(), inputs.at(o.fill).get(), o.bytes,
                              cudaMemcpyDeviceToDevice, stream.s),
              "refilling an output");
      else
        check(cudaMemsetAsync(outputs[i].get(), static_cast<int>(o.fill), o.bytes, stream.s),
              "refilling an output");
    }
    check(cudaEventRecord(start.e, stream.s), "cudaEventRecord");
    launch(spec.launch, values, stream.s);
    check(cudaGetLastError(), "the launch");
    check(cudaEventRecord(end.e, stream.s), "cudaEventRecord");
    check(cudaEventSynchronize(end.e), "the kernel");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start.e, end.e), "cudaEventElapsedTime");
    if (rep > 0)
      times.push_back(ms);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::vector<char> host(spec.outputs[i].bytes);
    check(cudaMemcpy(host.data(), outputs[i].get(), host.size(), cudaMemcpyDeviceToHost),
          "cudaMemcpy to the host");
    write_file(dir + "/out" + std::to_string(i) + ".bin", host);
  }
  std::printf("median_ms %.6f\n", median(times));
  return 0;
}

} // namespace sl1x

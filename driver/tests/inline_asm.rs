//! Inline assembly that is neither a collective nor touches memory does
//! not stop S-L1: clang marks every inline assembly in device code
//! convergent, and cuda_fp16's `__hadd` (an `add.f16`) made a loop "contain
//! a warp collective" (2026-11-28).

mod common;

use common::{driver, run_ok};

const HALVES: &str = r#"#include <cuda_fp16.h>
__global__ void halves(__half *__restrict__ out, const __half *__restrict__ in,
                       unsigned long long n, unsigned long long chunk) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned long long b = t * chunk, e = b + chunk < n ? b + chunk : n;
  for (unsigned long long i = b; i < e; ++i) out[i] = __hadd(in[i], out[i]);
}
__global__ void shuffled(int *__restrict__ out, unsigned long long n, unsigned long long chunk) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned long long b = t * chunk, e = b + chunk < n ? b + chunk : n;
  for (unsigned long long i = b; i < e; ++i) {
    int v = out[i], w;
    asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 31, -1;" : "=r"(w) : "r"(v));
    out[i] = v + w;
  }
}
"#;

#[test]
fn half_precision_arithmetic_in_assembly_is_no_collective() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("halves.cu");
    std::fs::write(&source, HALVES).unwrap();
    let out = run_ok(
        driver()
            .args(["build", "--emit", "ptx", "--print-report"])
            .arg(&source)
            .arg("-o")
            .arg(dir.path().join("halves.ptx")),
    );
    let report = &out.stderr;
    let section = |kernel: &str| {
        report
            .split("\nkernel ")
            .find(|s| s.starts_with(kernel))
            .unwrap_or_else(|| panic!("no kernel {kernel}:\n{report}"))
            .to_string()
    };
    let halves = section("halves");
    assert!(halves.contains("S-L1: 1 loop(s) sliced"), "{halves}");
    // A shuffle in assembly still is one.
    let shuffled = section("shuffled");
    assert!(shuffled.contains("warp collective"), "{shuffled}");
}

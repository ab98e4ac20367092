//! `sl1-driver probe` / `sl1-probe`: measures the GPU's memory hierarchy with
//! microbenchmarks (fine-grained pointer chases, shared-memory strides,
//! throughput sweeps), infers cache parameters from the latencies, and
//! derives S-L1's line sizes and shared-memory budget for the pass
//! (`-sl1-gpu-profile`, `sl1-driver build --gpu-profile`).

pub mod cache_model;
pub mod cli;
pub mod data;
pub mod infer;
pub mod kernels;
pub mod plan;
pub mod plot;
pub mod profile;
pub mod run;
pub mod simulate;
pub mod summary;
pub mod units;

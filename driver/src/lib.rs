//! `sl1-driver` as a library: the command line's types and the builds
//! behind it, for the `sl1-driver` program and for tools that build many
//! modules in one process (the differential fuzzer, `sl1-fuzz`).

pub mod arch;
pub mod block_limit;
pub mod build_cu;
pub mod build_ir;
pub mod build_many;
pub mod cli;
pub mod doctor;
pub mod error;
pub mod launch_runtime;
pub mod nvcc_args;
pub mod nvcc_flags;
pub mod nvcc_prelude;
pub mod pass_flags;
pub mod runner;
pub mod toolchain;

//! NVPTX code-generator bugs, kept out of every build.
//!
//! NVPTX reads through a kernel pointer argument marked `noalias` and
//! `readonly` with the non-coherent loads (`ld.global.nc`), and its
//! instruction selection has no such load for an atomic one: an atomic
//! load through such an argument (`__atomic_load_n` on a `__restrict__`
//! pointer the kernel only reads, nvcc's `__nv_atomic_load_n`) stops clang
//! with "Cannot select" in LLVM 19 and 22 alike, with or without S-L1
//! (`testdata/cu/atomic_flags.cu`).
//!
//! `atomic_loads` takes `readonly` off those arguments after LLVM's
//! optimizer, in every build: their other loads then go through the
//! coherent path, which an argument that is read atomically (memory another
//! thread or the host may change) wants anyway.

mod atomic_loads;

pub use atomic_loads::keep_atomic_loads_coherent;

//! A case as the GPU runs it: the launches in order and where each pointer
//! argument points. The one place that knows the shape of
//! [`FuzzCase`](crate::case::FuzzCase).
//!
//! Shim: today's case is one 1-D launch of the seed's kernel with every
//! pointer at the start of its buffer; cases with several launches, 2-D
//! shapes, dynamic shared memory and offsets (`FuzzCase::launches`,
//! `arg_offsets`) map onto the same [`CaseRun`] field by field.

use sl1_gpu::device::GridLaunch;

use crate::case::FuzzCase;

/// What the GPU thread needs besides the buffers' bytes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CaseRun {
    pub launches: Vec<GridLaunch>,
    /// Bytes from the start of its buffer, per pointer argument.
    pub arg_offsets: Vec<u64>,
    /// The `u64` scalars after the pointers: `n`, `chunk`.
    pub scalars: Vec<u64>,
}

/// The launches of `case`, whose kernel is named `kernel`.
pub fn case_run(case: &FuzzCase, kernel: &str) -> CaseRun {
    CaseRun {
        launches: vec![GridLaunch {
            kernel: kernel.to_string(),
            grid: (case.blocks, 1),
            block: (case.threads, 1),
            dynamic_shared: 0,
        }],
        arg_offsets: vec![0; case.buffer_of_arg.len()],
        scalars: vec![case.n, case.chunk],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_runs_its_seed_s_kernel_with_every_argument() {
        let spec = sl1_kernelgen::generate(7).spec;
        let case = crate::case::case(&spec, 7);
        let run = case_run(&case, &spec.name);
        assert_eq!(run.launches.len(), 1);
        assert_eq!(run.launches[0].kernel, "k7");
        assert_eq!(run.arg_offsets.len(), spec.args.len());
        assert_eq!(run.scalars, [case.n, case.chunk]);
    }
}

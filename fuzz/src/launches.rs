//! A case as the GPU (or the CPU emulator) runs it: the launches in order
//! with the kernels' names, and where each pointer argument points. The
//! one place that maps a [`FuzzCase`] onto the harness's launch type.

use std::collections::BTreeMap;

use sl1_gpu::device::GridLaunch;
use sl1_kernelgen::KernelSpec;
use sl1_pass::transform::LaunchBytes;

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

/// The launches of `case`, whose module is `spec`.
pub fn case_run(case: &FuzzCase, spec: &KernelSpec) -> CaseRun {
    CaseRun {
        launches: case
            .launches
            .iter()
            .map(|l| GridLaunch {
                kernel: spec.kernel_name(l.kernel),
                grid: l.grid,
                block: l.block,
                dynamic_shared: l.dynamic_shared,
            })
            .collect(),
        arg_offsets: case.arg_offsets.clone(),
        scalars: vec![case.n, case.chunk],
    }
}

/// `run` with every launch of a kernel with a launch-sized line buffer
/// giving it its bytes, as the driver's host compile makes a program's
/// launches do (`sl1_pass::launch`).
pub fn with_line_buffers(run: &CaseRun, bytes: &BTreeMap<String, LaunchBytes>) -> CaseRun {
    let mut sized = run.clone();
    for l in &mut sized.launches {
        if let Some(b) = bytes.get(&l.kernel) {
            let lines = b.for_block(u64::from(l.block.0) * u64::from(l.block.1));
            l.dynamic_shared = l.dynamic_shared.max(lines as u32);
        }
    }
    sized
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_runs_every_kernel_of_its_module_in_order() {
        let several = (0..200u64)
            .map(|seed| (seed, sl1_kernelgen::generate(seed).spec))
            .find(|(_, spec)| spec.kernels.len() > 1)
            .expect("a module of several kernels in 200 seeds");
        let (seed, spec) = several;
        let case = crate::case::case(&spec, seed);
        let run = case_run(&case, &spec);
        let names: Vec<_> = run.launches.iter().map(|l| l.kernel.clone()).collect();
        let expected: Vec<_> = (0..spec.kernels.len())
            .map(|k| spec.kernel_name(k))
            .collect();
        assert_eq!(names, expected);
        assert_eq!(names[0], format!("k{seed}"));
        assert_eq!(run.arg_offsets.len(), spec.args.len());
        assert_eq!(run.scalars, [case.n, case.chunk]);
    }
}

//! The applications of the suite. An app says how to build its inputs, which
//! kernel to launch with which arguments, and what the output must be.

mod affinity;
mod dna;
mod grep;
mod invindex;
mod kmeans;
mod matmul;
mod opinion;
mod pvc;
mod upper;
mod wc;

pub use affinity::Affinity;
pub use dna::Dna;
pub use grep::Grep;
pub use invindex::InvIndex;
pub use kmeans::Kmeans;
pub use matmul::Matmul;
pub use opinion::Opinion;
pub use pvc::Pvc;
pub use upper::Upper;
pub use wc::Wc;

/// A kernel argument, in launch order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Device copy of input buffer `i`.
    Input(usize),
    /// Device output buffer `i` (poisoned before every run).
    Output(usize),
    U64(u64),
    U32(u32),
}

/// An output buffer: its size and the byte it is filled with before each run
/// (a poison pattern, or zero for accumulators).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    pub bytes: usize,
    pub fill: u8,
}

/// The poison written into plain output buffers before each run.
pub const POISON: u8 = 0xa5;

/// One generated problem: inputs, output buffers, and the expected outputs.
#[derive(Clone, Debug)]
pub struct Case {
    pub inputs: Vec<Vec<u8>>,
    pub outputs: Vec<Output>,
    /// What the CPU reference computed for each output buffer.
    pub expected: Vec<Vec<u8>>,
}

pub trait App: Sync {
    fn name(&self) -> &'static str;
    /// The `extern "C"` kernel in `testdata/apps/<name>/<name>.cu`: named
    /// after the app.
    fn kernel(&self) -> &'static str {
        self.name()
    }
    /// Inputs of about `bytes` bytes, from `seed`, with the CPU reference.
    fn case(&self, bytes: usize, seed: u64) -> Case;
    /// Arguments for a launch of `threads` threads in all.
    fn args(&self, case: &Case, threads: u64) -> Vec<Arg>;
    /// Dynamic shared memory per block.
    fn shared_bytes(&self, _case: &Case) -> u32 {
        0
    }
}

/// Every app of the suite.
pub fn all() -> Vec<&'static dyn App> {
    vec![
        &Upper, &Wc, &Dna, &Opinion, &InvIndex, &Pvc, &Affinity, &Matmul, &Grep, &Kmeans,
    ]
}

pub fn by_name(name: &str) -> Option<&'static dyn App> {
    all().into_iter().find(|a| a.name() == name)
}

/// Little-endian bytes of `i32`s, as kernels read and write them.
pub fn le_i32(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Little-endian bytes of `u32`s.
pub fn le_u32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Little-endian bytes of `u64`s.
pub fn le_u64(values: &[u64]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Per-thread chunk for `n` items over `threads` threads.
pub fn chunk(n: u64, threads: u64) -> u64 {
    n.div_ceil(threads.max(1))
}

/// Calls `f(i, &mut out[i])` for every `i`, on all the CPU's cores: each
/// thread takes one contiguous run of `out`, as the kernels' threads do (for
/// CPU references whose items are independent).
pub fn par_for_each<T: Send>(out: &mut [T], f: impl Fn(usize, &mut T) + Sync) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let run = out.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (c, part) in out.chunks_mut(run).enumerate() {
            let f = &f;
            s.spawn(move || {
                for (k, x) in part.iter_mut().enumerate() {
                    f(c * run + k, x);
                }
            });
        }
    });
}

/// Compares outputs byte for byte; says where the first difference is.
pub fn check(case: &Case, got: &[Vec<u8>]) -> Result<(), String> {
    for (i, (want, have)) in case.expected.iter().zip(got).enumerate() {
        if want.len() != have.len() {
            return Err(format!(
                "output {i}: {} bytes, expected {}",
                have.len(),
                want.len()
            ));
        }
        if let Some(at) = want.iter().zip(have).position(|(a, b)| a != b) {
            let differ = want.iter().zip(have).filter(|(a, b)| a != b).count();
            return Err(format!(
                "output {i}: {differ} byte(s) differ, first at {at} (got {:#04x}, expected {:#04x})",
                have[at], want[at]
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_reports_the_first_difference() {
        let case = Case {
            inputs: vec![],
            outputs: vec![Output {
                bytes: 4,
                fill: POISON,
            }],
            expected: vec![vec![1, 2, 3, 4]],
        };
        assert!(check(&case, &[vec![1, 2, 3, 4]]).is_ok());
        let err = check(&case, &[vec![1, 9, 3, 8]]).unwrap_err();
        assert!(err.contains("2 byte(s) differ, first at 1"), "{err}");
        assert!(check(&case, &[vec![1, 2]]).is_err());
    }

    #[test]
    fn every_app_is_found_by_name_and_its_reference_passes_its_check() {
        for app in all() {
            assert_eq!(by_name(app.name()).unwrap().name(), app.name());
            let case = app.case(4099, 1);
            assert_eq!(case.outputs.len(), case.expected.len());
            assert!(check(&case, &case.expected).is_ok());
            let args = app.args(&case, 96);
            assert!(args.contains(&Arg::Input(0)) && args.contains(&Arg::Output(0)));
        }
    }

    #[test]
    fn par_for_each_visits_every_item_once() {
        for n in [0, 1, 7, 1000] {
            let mut out = vec![0usize; n];
            par_for_each(&mut out, |i, x| *x += i + 1);
            assert!(out.iter().enumerate().all(|(i, &x)| x == i + 1));
        }
    }

    #[test]
    fn chunks_cover_the_input() {
        assert_eq!(chunk(100, 7), 15);
        assert_eq!(chunk(0, 7), 0);
        assert!(chunk(4099, 96) * 96 >= 4099);
    }
}

//! The applications of the suite. An app says how to build its inputs, which
//! kernel to launch with which arguments, and what the output must be. The
//! do-no-harm kernels (module `harm`) are apps too; `suites` holds both.

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

use crate::sweep::{Config, Shape};

/// A kernel argument, in launch order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Device copy of input buffer `i`.
    Input(usize),
    /// Device output buffer `i` (filled as its [`Output`] says before every
    /// run).
    Output(usize),
    /// Device output buffer `i` plus a byte offset: a second pointer into
    /// the same buffer, for in-place kernels whose arguments alias.
    OutputAt(usize, u64),
    U64(u64),
    /// 32 bits (an `unsigned int`, or a `float`'s bits).
    U32(u32),
}

/// What an output buffer holds before each run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Every byte this one (a poison pattern, or zero for accumulators).
    Byte(u8),
    /// A copy of input buffer `i` (of the output's size): a buffer updated
    /// in place, which is the input and the output.
    Input(usize),
}

/// An output buffer: its size and what it holds before each run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output {
    pub bytes: usize,
    pub fill: Fill,
}

impl Output {
    /// The buffer's bytes before a run, given the case's inputs.
    pub fn initial(&self, inputs: &[Vec<u8>]) -> Vec<u8> {
        match self.fill {
            Fill::Byte(b) => vec![b; self.bytes],
            Fill::Input(i) => {
                assert_eq!(
                    inputs[i].len(),
                    self.bytes,
                    "an output filled from input {i} has its size"
                );
                inputs[i].clone()
            }
        }
    }
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
    /// The `extern "C"` kernel in `testdata/apps/<name>/<name>.cu` (harm
    /// kernels: `testdata/harm/<name>/<name>.cu`): named after the app.
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
    /// The grid and block of a launch at `config` (the same threads in all):
    /// 1-D unless the kernel indexes a 2-D grid.
    fn shape(&self, config: Config) -> Shape {
        Shape::linear(config)
    }
    /// The launch configurations to time, from the sweep: the sweep itself,
    /// unless the kernel fixes how much work a thread does (its grid then
    /// follows from the input).
    fn configs(&self, _case: &Case, sweep: &[Config]) -> Vec<Config> {
        sweep.to_vec()
    }
}

/// Every app of the suite (the paper's ten).
pub fn all() -> Vec<&'static dyn App> {
    vec![
        &Upper, &Wc, &Dna, &Opinion, &InvIndex, &Pvc, &Affinity, &Matmul, &Grep, &Kmeans,
    ]
}

/// Values kernels read and write, as little-endian bytes.
pub trait Le: Copy {
    fn put(self, out: &mut Vec<u8>);
}

macro_rules! le_values {
    ($($t:ty),*) => {
        $(impl Le for $t {
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        })*
    };
}
le_values!(u8, u16, i32, u32, i64, u64, f32, f64);

/// Little-endian bytes of `values`, as kernels read and write them.
pub fn le<T: Le>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(std::mem::size_of_val(values));
    for v in values {
        v.put(&mut out);
    }
    out
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

/// Whether `args` fit `case`: every buffer they name exists, offsets stay
/// inside their output, and outputs copied from an input have its size.
pub fn check_args(case: &Case, args: &[Arg]) -> Result<(), String> {
    for (k, o) in case.outputs.iter().enumerate() {
        if let Fill::Input(i) = o.fill {
            match case.inputs.get(i) {
                Some(input) if input.len() == o.bytes => {}
                Some(input) => {
                    return Err(format!(
                        "output {k} ({} bytes) is filled from input {i} of {} bytes",
                        o.bytes,
                        input.len()
                    ))
                }
                None => return Err(format!("output {k} is filled from no input {i}")),
            }
        }
    }
    for (n, arg) in args.iter().enumerate() {
        match *arg {
            Arg::Input(i) if i >= case.inputs.len() => {
                return Err(format!("argument {n}: no input {i}"))
            }
            Arg::Output(i) if i >= case.outputs.len() => {
                return Err(format!("argument {n}: no output {i}"))
            }
            Arg::OutputAt(i, offset) => match case.outputs.get(i) {
                Some(o) if offset < o.bytes as u64 => {}
                Some(o) => {
                    return Err(format!(
                        "argument {n}: offset {offset} past output {i}'s {} bytes",
                        o.bytes
                    ))
                }
                None => return Err(format!("argument {n}: no output {i}")),
            },
            _ => {}
        }
    }
    Ok(())
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
        if want == have {
            // memcmp: hundreds of MB per run, checked after every configuration.
            continue;
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
    use crate::suites::{by_name, harm};

    #[test]
    fn check_reports_the_first_difference() {
        let case = Case {
            inputs: vec![],
            outputs: vec![Output {
                bytes: 4,
                fill: Fill::Byte(POISON),
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
            assert_eq!(check_args(&case, &args), Ok(()), "{}", app.name());
        }
    }

    #[test]
    fn arguments_must_name_buffers_of_the_case() {
        let case = Case {
            inputs: vec![vec![0; 8]],
            outputs: vec![Output {
                bytes: 8,
                fill: Fill::Input(0),
            }],
            expected: vec![vec![0; 8]],
        };
        let ok = [
            Arg::Output(0),
            Arg::OutputAt(0, 4),
            Arg::Input(0),
            Arg::U64(2),
        ];
        assert_eq!(check_args(&case, &ok), Ok(()));
        for bad in [
            Arg::OutputAt(0, 8),
            Arg::OutputAt(1, 0),
            Arg::Input(1),
            Arg::Output(1),
        ] {
            assert!(
                check_args(&case, std::slice::from_ref(&bad)).is_err(),
                "{bad:?}"
            );
        }
        let mut resized = case.clone();
        resized.outputs[0].bytes = 12;
        let err = check_args(&resized, &ok).unwrap_err();
        assert!(err.contains("filled from input 0 of 8 bytes"), "{err}");
    }

    #[test]
    fn outputs_start_filled_or_as_a_copy_of_an_input() {
        let inputs = vec![vec![1, 2, 3], vec![7, 8]];
        let poisoned = Output {
            bytes: 3,
            fill: Fill::Byte(POISON),
        };
        assert_eq!(poisoned.initial(&inputs), [POISON; 3]);
        let in_place = Output {
            bytes: 2,
            fill: Fill::Input(1),
        };
        assert_eq!(in_place.initial(&inputs), [7, 8]);
    }

    #[test]
    #[should_panic(expected = "has its size")]
    fn an_output_copied_from_an_input_of_another_size_is_refused() {
        Output {
            bytes: 4,
            fill: Fill::Input(0),
        }
        .initial(&[vec![1, 2, 3]]);
    }

    #[test]
    fn both_suites_are_found_by_name_and_apps_launch_in_one_dimension() {
        assert_eq!(by_name("upper").unwrap().name(), "upper");
        assert_eq!(by_name("inplace_shift").unwrap().name(), "inplace_shift");
        assert!(by_name("nosuchapp").is_none());
        let c = Config {
            blocks: 132,
            threads: 256,
        };
        for app in all() {
            assert_eq!(app.shape(c), Shape::linear(c), "{}", app.name());
        }
        // No name is in both suites.
        for h in harm() {
            assert!(all().iter().all(|a| a.name() != h.name()), "{}", h.name());
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

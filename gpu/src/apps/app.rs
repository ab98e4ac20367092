//! What an app is: its arguments and outputs, the `App` trait, and the
//! helpers the apps and the do-no-harm kernels build their cases with.

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

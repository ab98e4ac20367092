//! Running one seed's builds on the GPU and comparing them: the plain build
//! twice (a difference between the two is the generator's bug: a result
//! that hangs on the threads' order), then each distinct mode once, all on
//! fresh device copies of the same inputs, every buffer byte for byte. A
//! kernel that faults poisons the CUDA context; the runner then opens a
//! new one and goes on with the next build.

use std::time::{Duration, Instant};

use sl1_gpu::device::{CudaSlice, Gpu, GpuError, LaunchArgs};

use crate::build::{Built, SeedBuild};
use crate::case::{differences, first_difference, FuzzCase};
use crate::launches::CaseRun;

/// How long one run's launches may take: generated kernels take
/// microseconds, so this only catches a kernel that never ends.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// How long a reset of the GPU after such a kernel may take.
const RESET_WAIT: Duration = Duration::from_secs(20);

/// Where two runs first differ, and how much.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub buffer: usize,
    pub offset: usize,
    pub plain: Option<u8>,
    pub other: Option<u8>,
    /// (buffer, offset, plain byte, other byte), the first 256.
    pub listed: Vec<[usize; 4]>,
    pub count: usize,
    /// Both runs' bytes of that buffer from `offset` rounded down to 16,
    /// [`WINDOW`] of them: whole elements around the first difference.
    pub window_start: usize,
    pub plain_window: Vec<u8>,
    pub other_window: Vec<u8>,
}

/// Bytes of each run kept around the first difference.
pub const WINDOW: usize = 64;

impl Difference {
    /// How `other` differs from `plain`, if it does.
    pub fn between(plain: &[Vec<u8>], other: &[Vec<u8>]) -> Option<Difference> {
        let (buffer, offset) = first_difference(plain, other)?;
        let (listed, count) = differences(plain, other, 256);
        let window_start = offset / 16 * 16;
        let window = |bytes: &[u8]| {
            let end = bytes.len().min(window_start + WINDOW);
            bytes.get(window_start..end).unwrap_or_default().to_vec()
        };
        Some(Difference {
            window_start,
            plain_window: window(&plain[buffer]),
            other_window: window(&other[buffer]),
            buffer,
            offset,
            plain: plain[buffer].get(offset).copied(),
            other: other[buffer].get(offset).copied(),
            listed,
            // A shorter buffer (never expected) differs without bytes.
            count: count.max(1),
        })
    }
}

/// What became of one build on the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not run: it failed to build, or had the same code as another build.
    NotRun,
    /// Not compared: the plain build gave no reference (it failed, or its
    /// two runs differ).
    NoReference,
    /// Every byte as the plain build's (for plain: both runs agree).
    Agrees,
    /// Bytes differ from the plain build's (for plain: between its runs,
    /// the kernel is nondeterministic).
    Differs(Difference),
    /// A launch or the module failed.
    LaunchFailed(String),
}

/// One seed's verdicts, and the GPU seconds each build took.
#[derive(Clone, Debug)]
pub struct SeedOutcome {
    pub plain: Verdict,
    pub modes: Vec<Verdict>,
    pub plain_seconds: f64,
    pub mode_seconds: Vec<f64>,
}

/// The GPU thread's state: one context, re-opened after a fault, and reset
/// after a kernel that never ends.
pub struct GpuRunner {
    gpu: Option<Gpu>,
    name: String,
    /// Set when a kernel never finished and the reset failed: the GPU is
    /// busy for good.
    pub hung: bool,
    /// Contexts opened again after a fault or a reset.
    pub reopened: u64,
    /// Testing the recovery on a GPU: the first distinct mode of this seed
    /// runs with its pointers far outside memory, so that it faults.
    pub inject_fault: Option<u64>,
}

impl GpuRunner {
    pub fn open() -> Result<GpuRunner, GpuError> {
        let gpu = Gpu::open()?;
        Ok(GpuRunner {
            name: gpu.name(),
            gpu: Some(gpu),
            hung: false,
            reopened: 0,
            inject_fault: None,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs and compares the builds of `build` on the inputs of `case`. An
    /// error means no GPU context could be opened again: the run ends.
    pub fn run_seed(
        &mut self,
        build: &SeedBuild,
        case: &FuzzCase,
        run: &CaseRun,
    ) -> Result<SeedOutcome, GpuError> {
        let mut inputs = None;
        let mut outcome = SeedOutcome {
            plain: Verdict::NotRun,
            modes: vec![Verdict::NotRun; build.modes.len()],
            plain_seconds: 0.0,
            mode_seconds: vec![0.0; build.modes.len()],
        };
        let start = Instant::now();
        let reference = match &build.plain.built {
            Built::Code(cubin) => {
                let first = self.run_build(&mut inputs, cubin, case, run)?;
                let again = match &first {
                    Ok(_) if !self.hung => self.run_build(&mut inputs, cubin, case, run)?,
                    _ => Err(String::new()),
                };
                match (first, again) {
                    (Err(message), _) | (Ok(_), Err(message)) => {
                        outcome.plain = Verdict::LaunchFailed(message);
                        None
                    }
                    (Ok(first), Ok(again)) => match Difference::between(&first, &again) {
                        Some(d) => {
                            outcome.plain = Verdict::Differs(d);
                            None
                        }
                        None => {
                            outcome.plain = Verdict::Agrees;
                            Some(first)
                        }
                    },
                }
            }
            _ => None,
        };
        outcome.plain_seconds = start.elapsed().as_secs_f64();
        let mut fault = (self.inject_fault == Some(build.seed)).then(|| CaseRun {
            arg_offsets: vec![1 << 46; run.arg_offsets.len()],
            ..run.clone()
        });
        for (k, mode) in build.modes.iter().enumerate() {
            let Built::Code(cubin) = &mode.built else {
                continue;
            };
            let Some(plain) = &reference else {
                outcome.modes[k] = Verdict::NoReference;
                continue;
            };
            if self.hung {
                break;
            }
            let start = Instant::now();
            let faulty = fault.take();
            let run = faulty.as_ref().unwrap_or(run);
            let sized = crate::launches::with_line_buffers(run, &mode.launch_bytes);
            let run = &sized;
            outcome.modes[k] = match self.run_build(&mut inputs, cubin, case, run)? {
                Err(message) => Verdict::LaunchFailed(message),
                Ok(outputs) => match Difference::between(plain, &outputs) {
                    Some(d) => Verdict::Differs(d),
                    None => Verdict::Agrees,
                },
            };
            outcome.mode_seconds[k] = start.elapsed().as_secs_f64();
        }
        if self.hung {
            // Freeing the inputs would wait behind the kernel that runs on.
            std::mem::forget(inputs);
        }
        Ok(outcome)
    }

    /// One run of `cubin` on fresh copies of the case's buffers (uploaded
    /// once per seed, into `inputs`). The inner error is the failure to
    /// record; the outer one ends the run.
    fn run_build(
        &mut self,
        inputs: &mut Option<Vec<CudaSlice<u8>>>,
        cubin: &[u8],
        case: &FuzzCase,
        run: &CaseRun,
    ) -> Result<Result<Vec<Vec<u8>>, String>, GpuError> {
        let gpu = match &self.gpu {
            Some(gpu) if !self.hung => gpu,
            _ => return Ok(Err("the GPU is busy with a kernel that never ended".into())),
        };
        let result = (|| {
            if inputs.is_none() {
                *inputs = Some(gpu.upload_buffers(&case.buffers)?);
            }
            let module = gpu.load_cubin(cubin)?;
            let args = LaunchArgs {
                buffer_of_arg: &case.buffer_of_arg,
                arg_offsets: &run.arg_offsets,
                scalars: &run.scalars,
            };
            let slices = inputs.as_deref().unwrap_or_default();
            let result = gpu.run_launches(&module, &run.launches, slices, args, TIMEOUT);
            if matches!(&result, Err(e) if e.is_sticky() || matches!(e, GpuError::Timeout(_))) {
                // Unloading would wait for a kernel that runs on, or fail
                // in a broken context: the reset frees the module.
                std::mem::forget(module);
            }
            result
        })();
        let err = match result {
            Ok(outputs) => return Ok(Ok(outputs)),
            Err(err) => err,
        };
        let message = err.to_string();
        if !(matches!(err, GpuError::Timeout(_)) || err.is_sticky() || !gpu.is_healthy()) {
            return Ok(Err(message));
        }
        // A kernel that never ends, or a fault that broke the context: a
        // reset of the device's context ends both. The inputs' handles die
        // with it: never free them.
        std::mem::forget(inputs.take());
        match self.gpu.take().map(|gpu| gpu.reset(RESET_WAIT)) {
            Some(Ok(gpu)) => {
                self.gpu = Some(gpu);
                self.reopened += 1;
                Ok(Err(message))
            }
            Some(Err(e)) => {
                self.hung = true;
                Ok(Err(format!("{message}; resetting the GPU failed: {e}")))
            }
            None => Ok(Err(message)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_the_first_byte_and_count_all() {
        let a = vec![vec![1u8, 2, 3], vec![4, 5]];
        assert_eq!(Difference::between(&a, &a), None);
        let mut b = a.clone();
        b[1][0] = 9;
        b[1][1] = 8;
        let d = Difference::between(&a, &b).unwrap();
        assert_eq!(
            (d.buffer, d.offset, d.plain, d.other),
            (1, 0, Some(4), Some(9))
        );
        assert_eq!(d.count, 2);
        assert_eq!(d.listed, vec![[1, 0, 4, 9], [1, 1, 5, 8]]);
    }
}

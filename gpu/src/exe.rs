//! The executable suite: each app and do-no-harm kernel built as users build
//! it, an executable with an ordinary C++ host (`gpu/exe`: vectors, RAII
//! buffers, launches in a lambda, in a helper beside the kernel, from
//! another file through `<<<>>>`, `cudaLaunchKernel` and
//! `cudaLaunchKernelExC`), through `sl1-driver` and `sl1-nvcc`
//! (`ci/exe-bundle`). `sl1-bench --exes DIR` writes each case as a problem
//! directory the host reads, runs every layout's executable at the
//! configuration where the PTX of the same options (`sl1-launch`: line
//! buffers sized at launch, as executables' are) was fastest, checks its
//! outputs, and compares its time with that PTX time of the same run. The
//! S-L1 runtime's `SL1_LAUNCHES=1` report says how many launches got
//! lines, and with how many bytes.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use sl1_core::launches::{self, KernelLaunches};

use crate::apps::{Arg, Case, Fill};
use crate::sweep::{Config, Shape};

#[derive(Debug, Error)]
pub enum ExeError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{exe} failed ({status}): {stderr}")]
    Failed {
        exe: PathBuf,
        status: String,
        stderr: String,
    },
    #[error("{exe} printed no `median_ms` line: {stdout}")]
    NoTime { exe: PathBuf, stdout: String },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ExeError + '_ {
    move |source| ExeError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// One launch as the host makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostLaunch {
    pub shape: Shape,
    /// The dynamic shared memory the launch itself gives (the kernel's own,
    /// not the lines: the S-L1 runtime adds those).
    pub shared: u32,
    pub reps: usize,
}

/// The `spec` file of a problem directory (read by `gpu/exe/host.h`).
pub fn spec_text(case: &Case, args: &[Arg], launch: HostLaunch) -> String {
    let mut s = format!(
        "grid {} {}\nblock {} {}\nshared {}\nreps {}\n",
        launch.shape.grid.0,
        launch.shape.grid.1,
        launch.shape.block.0,
        launch.shape.block.1,
        launch.shared,
        launch.reps
    );
    for input in &case.inputs {
        s += &format!("input {}\n", input.len());
    }
    for o in &case.outputs {
        s += &match o.fill {
            Fill::Byte(b) => format!("output {} byte {b}\n", o.bytes),
            Fill::Input(i) => format!("output {} input {i}\n", o.bytes),
        };
    }
    for a in args {
        s += &match *a {
            Arg::Input(i) => format!("arg input {i} 0\n"),
            Arg::Output(i) => format!("arg output {i} 0\n"),
            Arg::OutputAt(i, offset) => format!("arg output-at {i} {offset}\n"),
            Arg::U64(v) => format!("arg u64 {v} 0\n"),
            Arg::U32(v) => format!("arg u32 {v} 0\n"),
        };
    }
    s
}

/// Writes `case`'s inputs into `dir` (once per app: every layout reads
/// them).
pub fn write_inputs(dir: &Path, case: &Case) -> Result<(), ExeError> {
    for (i, input) in case.inputs.iter().enumerate() {
        let path = dir.join(format!("in{i}.bin"));
        std::fs::write(&path, input).map_err(io(&path))?;
    }
    Ok(())
}

/// Writes the launch's `spec` into `dir`, beside the inputs.
pub fn write_spec(
    dir: &Path,
    case: &Case,
    args: &[Arg],
    launch: HostLaunch,
) -> Result<(), ExeError> {
    let path = dir.join("spec");
    std::fs::write(&path, spec_text(case, args, launch)).map_err(io(&path))
}

/// One run of an executable.
#[derive(Clone, Debug)]
pub struct ExeRun {
    pub median_ms: f32,
    pub outputs: Vec<Vec<u8>>,
    pub launches: Vec<KernelLaunches>,
}

/// How an executable's host allocates its buffers (`gpu/exe/host.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Alloc {
    /// The stream-ordered pool (`cudaMallocAsync`), as the PTX runs
    /// allocate (cudarc): the kernels then see the same memory.
    Pool,
    /// `cudaMalloc`, as most programs allocate.
    Malloc,
}

impl Alloc {
    fn env(self) -> &'static str {
        match self {
            Alloc::Pool => "async",
            Alloc::Malloc => "sync",
        }
    }
}

/// Runs `exe` on the problem in `dir` (`outputs` buffers come back), its
/// buffers allocated as `alloc` says.
pub fn run(exe: &Path, dir: &Path, outputs: usize, alloc: Alloc) -> Result<ExeRun, ExeError> {
    for i in 0..outputs {
        // A stale output of another layout must not pass for this one's.
        let _ = std::fs::remove_file(dir.join(format!("out{i}.bin")));
    }
    let out = Command::new(exe)
        .arg(dir)
        .env("SL1_LAUNCHES", "1")
        .env("SL1X_ALLOC", alloc.env())
        .output()
        .map_err(io(exe))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(ExeError::Failed {
            exe: exe.to_path_buf(),
            status: out.status.to_string(),
            stderr,
        });
    }
    let median_ms = stdout
        .lines()
        .find_map(|l| l.strip_prefix("median_ms ")?.trim().parse().ok())
        .ok_or_else(|| ExeError::NoTime {
            exe: exe.to_path_buf(),
            stdout: stdout.clone(),
        })?;
    let outputs = (0..outputs)
        .map(|i| {
            let path = dir.join(format!("out{i}.bin"));
            std::fs::read(&path).map_err(io(&path))
        })
        .collect::<Result<_, _>>()?;
    Ok(ExeRun {
        median_ms,
        outputs,
        launches: launches::parse(&stderr),
    })
}

/// The layouts' executables of `app` in `dir` (`<dir>/<layout>/<app>`),
/// by layout name.
pub fn executables(dir: &Path, app: &str) -> Result<Vec<(String, PathBuf)>, ExeError> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        let exe = entry.path().join(app);
        if exe.is_file() {
            found.push((entry.file_name().to_string_lossy().into_owned(), exe));
        }
    }
    found.sort();
    Ok(found)
}

/// Launches timed per executable (and per PTX timing beside it): at least
/// `reps`, and enough for about [`MIN_TIMED_MS`] of kernel time, so that the
/// median of a 65 us kernel is not one of five launches 1-3 us apart.
pub fn reps_for(reps: usize, kernel_ms: Option<f32>) -> usize {
    let enough = kernel_ms
        .filter(|ms| *ms > 0.0)
        .map_or(0, |ms| (MIN_TIMED_MS / ms).ceil() as usize);
    reps.max(enough.min(MAX_REPS))
}

/// Kernel time each executable's median is taken over, at least.
pub const MIN_TIMED_MS: f32 = 20.0;
/// Launches per timing, at most (a 20 us kernel).
const MAX_REPS: usize = 1000;

/// An executable's run beside the PTX of the same build.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExeMeasurement {
    pub app: String,
    pub layout: String,
    pub config: Config,
    /// How the executable allocated its buffers.
    pub alloc: Alloc,
    pub exe_ms: f32,
    /// The PTX build's time at the same configuration, timed just before
    /// and just after the executable (the mean of the two medians).
    pub ptx_ms: Option<f32>,
    /// The dynamic shared bytes the PTX launch gave (lines and the
    /// kernel's own); None for a kernel S-L1 left alone.
    pub ptx_bytes: Option<u32>,
    /// What the S-L1 runtime said of the executable's launches.
    pub launches: Option<KernelLaunches>,
    /// Launches the executable made (a warm-up and the timed ones).
    pub expected_launches: u64,
    pub mismatch: Option<String>,
}

impl ExeMeasurement {
    /// The executable's time over the PTX's.
    pub fn ratio(&self) -> Option<f32> {
        self.ptx_ms.map(|p| self.exe_ms / p)
    }

    /// Why the executable's launches did not all get the PTX's lines, if
    /// they did not.
    pub fn lines_problem(&self) -> Option<String> {
        let want = self.ptx_bytes?;
        match &self.launches {
            None => Some(format!(
                "no launch got lines (the PTX launch gave {want} B)"
            )),
            Some(l) if l.launches != self.expected_launches => Some(format!(
                "{} of {} launches got lines",
                l.launches, self.expected_launches
            )),
            Some(l) if l.last_bytes != u64::from(want) => Some(format!(
                "launched with {} B, the PTX with {want} B",
                l.last_bytes
            )),
            Some(_) => None,
        }
    }
}

/// The table of executables against the PTX of `build`, and a summary
/// line.
pub fn table(runs: &[ExeMeasurement], build: &str, alloc: Alloc) -> String {
    let how = match alloc {
        Alloc::Pool => "buffers from the stream-ordered pool, as the PTX runs' are",
        Alloc::Malloc => "buffers from cudaMalloc; the PTX runs' come from the stream-ordered pool",
    };
    let mut s = format!(
        "executables (S-L1 as users build it) against the PTX of {build} at the same \
         configuration, the PTX timed just before and just after each ({how})\n"
    );
    s += &format!(
        "{:<18} {:<16} {:>10} {:>9} {:>9} {:>8} {:>16}\n",
        "app", "layout", "config", "ptx ms", "exe ms", "exe/ptx", "lines B exe/ptx"
    );
    for r in runs {
        let ratio = r.ratio().map_or("-".into(), |x| format!("{x:.3}"));
        let lines = match (&r.launches, r.ptx_bytes) {
            (None, None) => "none".to_string(),
            (l, p) => format!(
                "{}/{}",
                l.as_ref().map_or("-".into(), |l| l.last_bytes.to_string()),
                p.map_or("-".into(), |p| p.to_string())
            ),
        };
        s += &format!(
            "{:<18} {:<16} {:>10} {:>9} {:>9.4} {:>8} {:>16}\n",
            r.app,
            r.layout,
            format!("{}x{}", r.config.blocks, r.config.threads),
            r.ptx_ms.map_or("-".into(), |p| format!("{p:.4}")),
            r.exe_ms,
            ratio,
            lines
        );
    }
    s += &summary(runs);
    s
}

/// `executables: N runs, M at most 3% slower than their PTX (worst ...), ...`.
pub fn summary(runs: &[ExeMeasurement]) -> String {
    let timed: Vec<(&ExeMeasurement, f32)> =
        runs.iter().filter_map(|r| Some((r, r.ratio()?))).collect();
    let within = timed.iter().filter(|(_, x)| *x <= 1.03).count();
    let worst = timed
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(String::new(), |(r, x)| {
            format!(" (slowest {x:.3}x: {} {})", r.app, r.layout)
        });
    let with_lines = runs.iter().filter(|r| r.ptx_bytes.is_some()).count();
    let lines_ok = runs
        .iter()
        .filter(|r| r.ptx_bytes.is_some() && r.lines_problem().is_none())
        .count();
    let mismatches = runs.iter().filter(|r| r.mismatch.is_some()).count();
    format!(
        "executables: {} run(s), {within} of {} at most 3% slower than their PTX{worst}; \
         {lines_ok} of {with_lines} with lines got the PTX's bytes on every launch; \
         {mismatches} mismatch(es)\n",
        runs.len(),
        timed.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apps::Output;

    fn case() -> Case {
        Case {
            inputs: vec![vec![1, 2, 3]],
            outputs: vec![
                Output {
                    bytes: 8,
                    fill: Fill::Byte(0xa5),
                },
                Output {
                    bytes: 3,
                    fill: Fill::Input(0),
                },
            ],
            expected: vec![vec![0; 8], vec![1, 2, 3]],
        }
    }

    #[test]
    fn the_spec_names_every_buffer_and_argument_in_order() {
        let launch = HostLaunch {
            shape: Shape {
                grid: (12, 11),
                block: (32, 8),
            },
            shared: 1024,
            reps: 5,
        };
        let args = [
            Arg::Input(0),
            Arg::Output(0),
            Arg::OutputAt(1, 2),
            Arg::U64(1 << 40),
            Arg::U32(0x3f80_0000),
        ];
        assert_eq!(
            spec_text(&case(), &args, launch),
            "grid 12 11\nblock 32 8\nshared 1024\nreps 5\ninput 3\n\
             output 8 byte 165\noutput 3 input 0\narg input 0 0\narg output 0 0\n\
             arg output-at 1 2\narg u64 1099511627776 0\narg u32 1065353216 0\n"
        );
    }

    fn measured(launches: Option<(u64, u64)>, ptx_bytes: Option<u32>) -> ExeMeasurement {
        ExeMeasurement {
            app: "a".into(),
            layout: "inline-driver".into(),
            config: Config {
                blocks: 132,
                threads: 256,
            },
            alloc: Alloc::Pool,
            exe_ms: 1.02,
            ptx_ms: Some(1.0),
            ptx_bytes,
            launches: launches.map(|(n, b)| KernelLaunches {
                kernel: "a".into(),
                launches: n,
                last_bytes: b,
                by_runtime: 0,
            }),
            expected_launches: 6,
            mismatch: None,
        }
    }

    #[test]
    fn short_kernels_are_timed_over_more_launches() {
        assert_eq!(reps_for(5, Some(0.067)), 299);
        assert_eq!(reps_for(5, Some(4.0)), 5);
        assert_eq!(reps_for(5, None), 5);
        assert_eq!(reps_for(5, Some(0.001)), MAX_REPS);
    }

    #[test]
    fn launches_without_the_ptx_s_lines_are_a_problem() {
        assert_eq!(measured(Some((6, 4096)), Some(4096)).lines_problem(), None);
        assert_eq!(measured(None, None).lines_problem(), None);
        assert!(measured(None, Some(4096))
            .lines_problem()
            .unwrap()
            .contains("no launch got lines"));
        assert!(measured(Some((5, 4096)), Some(4096))
            .lines_problem()
            .unwrap()
            .contains("5 of 6"));
        assert!(measured(Some((6, 0)), Some(4096))
            .lines_problem()
            .unwrap()
            .contains("with 0 B"));
        let runs = [
            measured(Some((6, 4096)), Some(4096)),
            ExeMeasurement {
                exe_ms: 1.2,
                ..measured(None, Some(4096))
            },
        ];
        let s = summary(&runs);
        assert!(s.contains("1 of 2 at most 3% slower"), "{s}");
        assert!(s.contains("slowest 1.200x"), "{s}");
        assert!(s.contains("1 of 2 with lines got"), "{s}");
        assert!(table(&runs, "sl1-launch", Alloc::Pool).contains("4096/4096"));
    }
}

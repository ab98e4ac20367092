//! Builds one corpus program with `sl1-driver`, with S-L1 or without it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::program::Program;

/// The builds a program gets: two here, nvcc's on the GPU machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// `sl1-driver build` as a user runs it.
    Sl1,
    /// The same pipeline without the transform (`--no-sl1`).
    NoSl1,
    /// nvcc -O3, on the GPU machine (`nvcc`): the compiler users have today.
    Nvcc,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Sl1 => "sl1",
            Mode::NoSl1 => "no-sl1",
            Mode::Nvcc => "nvcc",
        }
    }
}

/// What one build gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BuildResult {
    pub mode: Mode,
    pub built: bool,
    /// The executable, when built.
    pub executable: Option<PathBuf>,
    /// The first error the build printed, or why it was not tried.
    pub error: Option<String>,
    /// Kernels the S-L1 report says were transformed.
    pub transformed: Vec<String>,
    pub seconds: f64,
}

impl BuildResult {
    pub(crate) fn not_tried(mode: Mode, why: String) -> Self {
        BuildResult {
            mode,
            built: false,
            executable: None,
            error: Some(why),
            transformed: Vec::new(),
            seconds: 0.0,
        }
    }
}

/// Builds `program` in `mode` with the `driver` executable into
/// `out/<mode>/<program name>/`.
pub fn build(driver: &Path, program: &Program, mode: Mode, out: &Path) -> BuildResult {
    let make = match &program.make {
        Ok(make) => make,
        Err(why) => return BuildResult::not_tried(mode, why.clone()),
    };
    if !make.unsupported.is_empty() {
        return BuildResult::not_tried(mode, format!("needs {}", make.unsupported.join(" ")));
    }
    let sources: Vec<String> = make
        .sources
        .iter()
        .map(|s| source_path(&program.dir, s))
        .collect();
    if !sources.iter().any(|s| s.ends_with(".cu")) {
        return BuildResult::not_tried(mode, format!("{}: no CUDA source", sources.join(" ")));
    }
    let dir = out.join(mode.name()).join(&program.name);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return BuildResult::not_tried(mode, format!("{}: {e}", dir.display()));
    }
    let executable = dir.join(&make.program);
    let report = dir.join("report.json");
    let mut cmd = Command::new(driver);
    cmd.current_dir(&program.dir)
        .arg("build")
        .args(&sources)
        .arg("-o")
        .arg(&executable)
        .args(["--cudart", "shared", "--report"])
        .arg(&report)
        .arg("-I")
        .arg(&program.dir);
    for flag in &make.flags {
        if let Some(include) = flag.strip_prefix("-I") {
            cmd.arg("-I").arg(program.dir.join(include));
        } else if let Some(define) = flag.strip_prefix("-D") {
            cmd.arg("-D").arg(define);
        } else {
            cmd.arg(format!("--clang-arg={flag}"));
        }
    }
    // Libraries as the Makefile links them (`-lcublas`): the build fails
    // alike both ways where one is missing here.
    for lib in &make.libs {
        cmd.arg(lib);
    }
    if mode == Mode::NoSl1 {
        cmd.arg("--no-sl1");
    }
    let start = Instant::now();
    let output = cmd.output();
    let seconds = start.elapsed().as_secs_f64();
    let output = match output {
        Ok(o) => o,
        Err(e) => {
            return BuildResult::not_tried(mode, format!("cannot run {}: {e}", driver.display()))
        }
    };
    let built = output.status.success() && executable.is_file();
    let stderr = String::from_utf8_lossy(&output.stderr);
    BuildResult {
        mode,
        built,
        executable: built.then_some(executable),
        error: (!built).then(|| first_error(&stderr, output.status)),
        transformed: if built {
            transformed_kernels(&report)
        } else {
            Vec::new()
        },
        seconds,
    }
}

/// The first line that says `error` (clang's diagnostics, the driver's
/// messages), else the last line, else the exit status.
/// A source as the build finds it: named from the Makefile's directory, or
/// kept under src/ with a pattern rule finding it there.
pub(crate) fn source_path(dir: &Path, source: &str) -> String {
    [source.to_string(), format!("src/{source}")]
        .into_iter()
        .find(|s| dir.join(s).is_file())
        .unwrap_or_else(|| source.to_string())
}

pub(crate) fn first_error(stderr: &str, status: std::process::ExitStatus) -> String {
    let line = stderr
        .lines()
        .find(|l| l.to_ascii_lowercase().contains("error"))
        .or_else(|| stderr.lines().rev().find(|l| !l.trim().is_empty()))
        .map(|l| l.trim().chars().take(300).collect::<String>());
    line.unwrap_or_else(|| format!("exit status {status}"))
}

/// Names of the kernels whose transform was applied, from a JSON report.
fn transformed_kernels(report: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(report) else {
        return Vec::new();
    };
    let Ok(report) = serde_json::from_str::<sl1_core::report::Report>(&text) else {
        return Vec::new();
    };
    report
        .kernels
        .into_iter()
        .filter(|k| k.transform.applied)
        .map(|k| k.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_error_line_is_kept() {
        let status = std::process::Command::new("false").status().unwrap();
        let err = first_error("warning: x\nmain.cu:3:1: error: bad\nnote: y\n", status);
        assert_eq!(err, "main.cu:3:1: error: bad");
        assert_eq!(first_error("only a note\n", status), "only a note");
        assert!(first_error("", status).starts_with("exit status"));
    }

    #[test]
    fn transformed_kernels_come_from_the_report() {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("r.json");
        use sl1_core::report::{KernelReport, Report};
        let kernel = |name: &str, applied: bool| {
            let mut k = KernelReport {
                name: name.into(),
                ..KernelReport::default()
            };
            k.transform.applied = applied;
            k
        };
        let written = Report {
            kernels: vec![kernel("a", true), kernel("b", false)],
            ..Report::default()
        };
        std::fs::write(&report, serde_json::to_string(&written).unwrap()).unwrap();
        assert_eq!(transformed_kernels(&report), ["a"]);
        assert!(transformed_kernels(&dir.path().join("none.json")).is_empty());
    }
}

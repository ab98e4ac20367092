//! Several inputs linked into one executable, as `nvcc a.cu b.cpp c.o`
//! links them: each CUDA source compiled with S-L1 into an object of its
//! own (whole-program device code, as nvcc without `-rdc`), C and C++
//! sources as host code, objects as they are; one report for the CUDA
//! sources together.

use std::path::{Path, PathBuf};

use anyhow::Result;
use sl1_pass::Report;

use crate::build_cu;
use crate::cli::{BuildArgs, Emit};
use crate::error::DriverError;
use crate::toolchain::Toolchain;

/// What an input of a linked build is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A CUDA source: S-L1's device compile and the host compile.
    Cuda,
    /// A C or C++ source: host code only.
    Host,
    /// An object file, linked as it is.
    Object,
}

/// The kind of a linked build's input, by its extension; C and C++ sources
/// are CUDA when `all_cuda` (`-x cu`).
pub fn part_of(path: &Path, all_cuda: bool) -> Result<Part, DriverError> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("cu") => Ok(Part::Cuda),
        Some("c" | "cpp" | "cc" | "cxx" | "C") if all_cuda => Ok(Part::Cuda),
        Some("c" | "cpp" | "cc" | "cxx" | "C") => Ok(Part::Host),
        Some("o") => Ok(Part::Object),
        _ => Err(DriverError::UnsupportedPart {
            path: path.to_path_buf(),
        }),
    }
}

/// Builds `inputs` into the executable `output`.
pub fn build(
    args: &BuildArgs,
    tools: &Toolchain,
    inputs: &[PathBuf],
    output: &Path,
) -> Result<Report> {
    let temp = tempfile::Builder::new().prefix("sl1-link-").tempdir()?;
    let mut objects = Vec::new();
    let mut reports = Vec::new();
    for (n, input) in inputs.iter().enumerate() {
        // Numbered: two sources of one name in different directories.
        let stem = input.file_stem().unwrap_or_default().to_string_lossy();
        let object = temp.path().join(format!("{n}-{stem}.o"));
        match part_of(input, args.all_cuda())? {
            Part::Cuda => {
                let one = BuildArgs {
                    input: input.clone(),
                    more_inputs: Vec::new(),
                    ..args.clone()
                };
                reports.push(build_cu::build(&one, tools, Emit::Obj, &object)?);
                objects.push(object);
            }
            Part::Host => {
                build_cu::compile_host(args, tools, input, &object)?;
                objects.push(object);
            }
            Part::Object => objects.push(input.clone()),
        }
    }
    build_cu::link(args, tools, &objects, output)?;
    match merge(reports) {
        Some(report) => Ok(report),
        None => empty_report(args, inputs),
    }
}

/// The reports of several CUDA sources as one: their kernels, and what
/// the device rewrites did in all of them.
pub fn merge(reports: Vec<Report>) -> Option<Report> {
    let mut reports = reports.into_iter();
    let mut all = reports.next()?;
    for r in reports {
        all.source = format!("{}, {}", all.source, r.source);
        all.transformed |= r.transformed;
        all.bodies_restored |= r.bodies_restored;
        all.kernels.extend(r.kernels);
        match (&mut all.device_rewrites, r.device_rewrites) {
            (Some(a), Some(b)) => a.absorb(b),
            (None, b) => all.device_rewrites = b,
            (Some(_), None) => {}
        }
    }
    Some(all)
}

/// The report of a build without CUDA sources: no kernels.
pub fn empty_report(args: &BuildArgs, inputs: &[PathBuf]) -> Result<Report> {
    Ok(Report {
        source: inputs
            .iter()
            .map(|i| i.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        target: String::new(),
        options: crate::build_ir::pass_options(args, Emit::Exe)?,
        transformed: false,
        bodies_restored: false,
        device_rewrites: None,
        kernels: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_told_apart_by_their_extension() {
        assert_eq!(part_of(Path::new("a.cu"), false).unwrap(), Part::Cuda);
        assert_eq!(part_of(Path::new("ref.cpp"), false).unwrap(), Part::Host);
        assert_eq!(part_of(Path::new("util.c"), false).unwrap(), Part::Host);
        assert_eq!(part_of(Path::new("lib.o"), false).unwrap(), Part::Object);
        // -x cu: C++ sources are CUDA.
        assert_eq!(part_of(Path::new("ref.cpp"), true).unwrap(), Part::Cuda);
        let err = part_of(Path::new("k.ll"), false).unwrap_err().to_string();
        assert!(err.contains("k.ll"), "{err}");
    }

    #[test]
    fn merged_reports_keep_every_kernel() {
        let report = |source: &str, kernels: usize, transformed| Report {
            source: source.into(),
            target: "nvptx64-nvidia-cuda".into(),
            options: sl1_pass::Options::default(),
            transformed,
            bodies_restored: false,
            device_rewrites: None,
            kernels: (0..kernels)
                .map(|k| {
                    serde_json::from_value(serde_json::json!({
                        "name": format!("{source}{k}"),
                        "data_structures": [], "loops": [],
                        "accesses": {"total": 0, "data_structure": 0, "shared": 0,
                                     "local": 0, "global": 0, "unattributed": 0},
                        "unattributed": [],
                        "sync": {"fences": 0, "barriers": 0, "atomics": 0, "calls": 0},
                        "notes": [], "transform": {"applied": false, "reasons": [],
                        "loops_sliced": [], "accesses_cached": 0, "accesses_direct": [],
                        "shared_bytes": 0, "kernel_shared_bytes": 0, "max_threads": 1024}
                    }))
                    .unwrap()
                })
                .collect(),
        };
        let all = merge(vec![report("a.cu", 2, false), report("b.cu", 1, true)]).unwrap();
        assert_eq!(all.source, "a.cu, b.cu");
        assert!(all.transformed);
        assert_eq!(all.kernels.len(), 3);
        assert!(merge(Vec::new()).is_none());
    }
}

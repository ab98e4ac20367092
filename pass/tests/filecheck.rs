//! FileCheck tests of the IR surgery: a `testdata/ll` case holds its own
//! expectations as `; CHECK` lines (LLVM's FileCheck syntax), and one
//! `; SL1-RUN: PREFIX [options]` line per configuration to check: the pass
//! runs on the case with those options, and FileCheck matches the module it
//! leaves against the lines of that prefix. Smaller and more pointed than
//! the whole-module snapshots beside them (`analysis_reports.rs`): a line
//! says which instruction the slicing, the decision, the line runs or the
//! runtime must leave, and the rest of the module may change.

use std::path::{Path, PathBuf};
use std::process::Command;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::{run_on_module, Options};

/// LLVM 22's FileCheck (Debian: llvm-22-tools, which `ci/setup` installs).
fn filecheck() -> PathBuf {
    let candidates = [
        PathBuf::from("/usr/lib/llvm-22/bin/FileCheck"),
        PathBuf::from("/usr/bin/FileCheck-22"),
    ];
    candidates
        .into_iter()
        .find(|p| p.exists())
        .expect("FileCheck of LLVM 22 not found: install llvm-22-tools (bash ci/setup does)")
}

/// The options one `SL1-RUN` line names (the driver's flag spellings).
fn options_of(flags: &[&str]) -> Options {
    let mut options = Options::default();
    for flag in flags {
        let (name, value) = flag.split_once('=').unwrap_or((flag, ""));
        let bytes = || value.parse::<u32>().expect("a size in bytes");
        match name {
            // As the driver: given line sizes bound every kernel's.
            "--line-size" => {
                options.line_size = bytes();
                options.max_line_size = bytes();
                options.read_only_max_line_size = bytes();
                options.stream_max_line_size = bytes();
            }
            "--max-line-size" => {
                options.max_line_size = bytes();
                options.read_only_max_line_size = bytes();
                options.stream_max_line_size = bytes();
            }
            "--stream-max-line-size" => options.stream_max_line_size = bytes(),
            "--cache-read-only" => options.cache_read_only = true,
            "--no-static-prediction" => options.static_prediction = false,
            "--no-line-runs" => options.line_runs = false,
            "--no-line-staging" => options.line_staging = false,
            "--no-full-runs" => options.full_runs = false,
            "--no-warp-copies" => options.warp_copies = false,
            "--device-tuning" => options.device_tuning = true,
            "--stats" => options.stats = true,
            other => panic!("SL1-RUN: unknown option {other}"),
        }
    }
    options
}

/// (prefix, options) of each `; SL1-RUN:` line of a case.
fn runs_of(text: &str) -> Vec<(String, Options)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("; SL1-RUN:"))
        .map(|run| {
            let words: Vec<&str> = run.split_whitespace().collect();
            let (prefix, flags) = words.split_first().expect("SL1-RUN: PREFIX [options]");
            (prefix.to_string(), options_of(flags))
        })
        .collect()
}

/// Runs the pass on `case` under `options` and FileCheck with `prefix` on
/// what it leaves; the failure message is FileCheck's.
fn check(case: &Path, prefix: &str, options: &Options) -> Result<(), String> {
    let context = Context::create();
    let module = context
        .create_module_from_ir(MemoryBuffer::create_from_file(case).unwrap())
        .unwrap();
    run_on_module(&module, options).unwrap();
    module.verify().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out.ll");
    module.print_to_file(&output).unwrap();
    // To write CHECK lines from: SL1_FILECHECK_KEEP=DIR keeps each output.
    if let Some(keep) = std::env::var_os("SL1_FILECHECK_KEEP") {
        let name = case.file_stem().unwrap().to_string_lossy();
        std::fs::copy(
            &output,
            Path::new(&keep).join(format!("{name}.{prefix}.ll")),
        )
        .unwrap();
    }
    let run = Command::new(filecheck())
        .arg(case)
        .arg(format!("--check-prefix={prefix}"))
        .arg(format!("--input-file={}", output.display()))
        .output()
        .unwrap();
    if run.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} ({prefix}): {}",
            case.display(),
            String::from_utf8_lossy(&run.stderr)
        ))
    }
}

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/ll");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("; SL1-RUN:"))
        .collect();
    cases.sort();
    cases
}

#[test]
fn check_lines_of_the_ll_cases_hold() {
    let cases = cases();
    assert!(cases.len() >= 6, "FileCheck cases found: {cases:?}");
    let mut failures = Vec::new();
    for case in &cases {
        let text = std::fs::read_to_string(case).unwrap();
        for (prefix, options) in runs_of(&text) {
            assert!(
                text.contains(&format!("; {prefix}:")) || text.contains(&format!("; {prefix}-")),
                "{}: no {prefix} lines",
                case.display()
            );
            if let Err(e) = check(case, &prefix, &options) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_check_line_that_does_not_hold_fails() {
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("wrong.ll");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/ll/restrict_loop.ll");
    let text = std::fs::read_to_string(source)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("; SL1-RUN:") && !l.starts_with("; CHECK"))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&case, format!("{text}\n; CHECK: sl1.no.such.block:\n")).unwrap();
    let err = check(&case, "CHECK", &Options::default()).unwrap_err();
    assert!(err.contains("sl1.no.such.block"), "{err}");
}

#[test]
fn run_lines_name_a_prefix_and_the_driver_flags() {
    let runs = runs_of("; SL1-RUN: CHECK\n; SL1-RUN: PAPER --line-size=16 --cache-read-only\n");
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0].0, "CHECK");
    assert_eq!(runs[1].0, "PAPER");
    assert!(runs[1].1.cache_read_only && runs[1].1.max_line_size == 16);
}

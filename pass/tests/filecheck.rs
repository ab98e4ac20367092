//! FileCheck tests of the IR surgery, by pass: every `testdata/ll` case
//! holds its own expectations as `; CHECK` lines (LLVM's FileCheck syntax),
//! and one `; SL1-RUN: PREFIX [options]` line per configuration to check:
//! the pass runs on the case with those options (the driver's flag
//! spellings, `options_of`), and FileCheck matches the module it leaves
//! against the lines of that prefix. Each case checks the default options
//! (usually `CHECK`) and the paper's (`PAPER`: `--cache-read-only
//! --no-static-prediction --line-size=16`): a line says which global,
//! block, call or instruction the slicing, the decision, the line runs,
//! the coherence points or the runtime must leave, or (`CHECK-NOT`) what a
//! kernel left alone must not get; the rest of the module may change. Five
//! whole modules stay as golden snapshots (`analysis_reports.rs`).
//!
//! LLVM versions: the LLVM 19 build of the pass runs the same lines (LLVM
//! 22's FileCheck reads them either way). Where a version's IR differs, a
//! line is written for that version alone with the prefix
//! `LLVM<major>-<PREFIX>` (`; LLVM19-PAPER:` beside `; LLVM22-PAPER:`):
//! the harness checks `<PREFIX>` together with `LLVM<major>-<PREFIX>` of
//! the LLVM the pass was built against (`sl1_pass::LLVM_MAJOR`), when the
//! case has such lines, in the order they stand in the file.
//!
//! To write lines from the output: `SL1_FILECHECK_KEEP=DIR` keeps each
//! run's module as `DIR/<case>.<PREFIX>.ll`.

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
            "--dynamic-shared" => options.dynamic_shared = Some(bytes().into()),
            "--cache-read-only" => options.cache_read_only = true,
            "--no-static-prediction" => options.static_prediction = false,
            "--no-line-runs" => options.line_runs = false,
            "--no-line-staging" => options.line_staging = false,
            "--no-full-runs" => options.full_runs = false,
            "--no-warp-copies" => options.warp_copies = false,
            "--device-tuning" => options.device_tuning = true,
            // The driver's `--line-buffer launch`.
            "--launch-sized" => options.launch_sized = true,
            "--stats" => options.stats = true,
            other => panic!("SL1-RUN: unknown option {other}"),
        }
    }
    options
}

/// (prefixes, options) of each `; SL1-RUN:` line of a case: `PREFIX` or
/// `PREFIX,SHARED,...` (FileCheck's `--check-prefixes`: lines of a prefix
/// that several runs share need be written once).
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

/// Whether `text` has check lines of `prefix` (`; PREFIX:`, `; PREFIX-NOT:`...).
fn has_lines(text: &str, prefix: &str) -> bool {
    text.contains(&format!("; {prefix}:")) || text.contains(&format!("; {prefix}-"))
}

/// The prefixes FileCheck reads for run `prefixes` of a case (one, or
/// several with commas, `CHECK,ALL`): of each, the prefix itself and
/// `LLVM<major>-<prefix>` of the LLVM the pass is built against, those the
/// case has lines of (a prefix's lines may all be for one LLVM).
fn prefixes_of(text: &str, prefixes: &str, major: u32) -> String {
    let mut all = Vec::new();
    for prefix in prefixes.split(',') {
        for p in [prefix.to_string(), format!("LLVM{major}-{prefix}")] {
            if has_lines(text, &p) {
                all.push(p);
            }
        }
    }
    all.join(",")
}

/// Runs the pass on `case` under `options` and FileCheck with `prefix`
/// (and its lines for this LLVM, `prefixes_of`) on what it leaves; the
/// failure message is FileCheck's.
fn check(case: &Path, prefix: &str, options: &Options) -> Result<(), String> {
    let context = Context::create();
    let module = context
        .create_module_from_ir(MemoryBuffer::create_from_file(case).unwrap())
        .unwrap();
    run_on_module(&module, options).unwrap();
    module.verify().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("out.ll");
    // The module's name is the case's path, which may hold any word (a
    // checkout under `sl1/`): leave it out, as the golden snapshots do.
    let text: String = module
        .print_to_string()
        .to_string()
        .lines()
        .filter(|l| !l.starts_with("; ModuleID") && !l.starts_with("source_filename"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&output, text).unwrap();
    // To write CHECK lines from: SL1_FILECHECK_KEEP=DIR keeps each output.
    if let Some(keep) = std::env::var_os("SL1_FILECHECK_KEEP") {
        let name = case.file_stem().unwrap().to_string_lossy();
        std::fs::copy(
            &output,
            Path::new(&keep).join(format!("{name}.{}.ll", prefix.replace(',', "+"))),
        )
        .unwrap();
    }
    let prefixes = prefixes_of(
        &std::fs::read_to_string(case).unwrap(),
        prefix,
        sl1_pass::LLVM_MAJOR,
    );
    let run = Command::new(filecheck())
        .arg(case)
        .arg(format!("--check-prefixes={prefixes}"))
        .arg(format!("--input-file={}", output.display()))
        .output()
        .unwrap();
    if run.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} ({prefixes}, LLVM {}): {}",
            case.display(),
            sl1_pass::LLVM_MAJOR,
            String::from_utf8_lossy(&run.stderr)
        ))
    }
}

/// The paper's options (`--cache-read-only --no-static-prediction
/// --line-size=16`): read-only structures cached too, every loop
/// monitored, 16 B lines.
fn paper() -> Options {
    options_of(&[
        "--cache-read-only",
        "--no-static-prediction",
        "--line-size=16",
    ])
}

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/ll");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    cases.sort();
    cases
}

#[test]
fn check_lines_of_the_ll_cases_hold() {
    let cases = cases();
    assert!(cases.len() >= 30, "testdata/ll lost its cases: {cases:?}");
    let mut failures = Vec::new();
    for case in &cases {
        let text = std::fs::read_to_string(case).unwrap();
        let runs = runs_of(&text);
        // Every case checks what the default and the paper's options leave.
        for (what, options) in [("default", Options::default()), ("paper", paper())] {
            if !runs.iter().any(|(_, o)| *o == options) {
                failures.push(format!(
                    "{}: no SL1-RUN line with the {what} options",
                    case.display()
                ));
            }
        }
        for (prefix, options) in runs {
            let major = sl1_pass::LLVM_MAJOR;
            if let Some(p) = prefix
                .split(',')
                .find(|p| !has_lines(&text, p) && !has_lines(&text, &format!("LLVM{major}-{p}")))
            {
                failures.push(format!("{}: no {p} lines for LLVM {major}", case.display()));
                continue;
            }
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
        // The IR alone: no run or check line of any prefix.
        .filter(|l| !l.starts_with(';'))
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

#[test]
fn lines_for_one_llvm_join_the_shared_ones() {
    let text = "; CHECK: a\n; LLVM19-CHECK: b\n; LLVM19-PAPER-NOT: c\n; PAPER: d\n\
                ; LLVM22-ALL: e\n; LLVM19-ALL: f\n";
    assert_eq!(prefixes_of(text, "CHECK", 19), "CHECK,LLVM19-CHECK");
    assert_eq!(prefixes_of(text, "CHECK", 22), "CHECK");
    assert_eq!(prefixes_of(text, "PAPER", 19), "PAPER,LLVM19-PAPER");
    assert_eq!(prefixes_of(text, "PAPER", 22), "PAPER");
    assert_eq!(
        prefixes_of(text, "CHECK,PAPER", 19),
        "CHECK,LLVM19-CHECK,PAPER,LLVM19-PAPER"
    );
    // A prefix whose lines are all for one LLVM or the other.
    assert_eq!(prefixes_of(text, "CHECK,ALL", 22), "CHECK,LLVM22-ALL");
    assert_eq!(
        prefixes_of(text, "CHECK,ALL", 19),
        "CHECK,LLVM19-CHECK,LLVM19-ALL"
    );
}

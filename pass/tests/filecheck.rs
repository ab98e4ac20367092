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
//! The late stage: a run line with `--late` (which turns device tuning on)
//! also runs `run_late`, the stage after LLVM's optimizer, on what
//! `run_on_module` left (the harness runs no optimizer between them: a case
//! is written in the shape the late rewrites meet). The device rewrites
//! have a case each in `testdata/ll/device/<rewrite>.ll`, named as the
//! rewrite's file in `pass/src/tuning/` (`device_case`), whose lines must
//! hold and must fail where the run is made without that rewrite (its
//! switch off, or its row of `LATE_REWRITES` left out: `without`). Only
//! this harness reads that folder; the listings of `testdata/ll` elsewhere
//! take its `.ll` files alone.
//!
//! To write lines from the output: `SL1_FILECHECK_KEEP=DIR` keeps each
//! run's module as `DIR/<case>.<PREFIX>.ll`.

use std::path::{Path, PathBuf};
use std::process::Command;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::tuning::{Rewrite, RewriteCounts, LATE_REWRITES};
use sl1_pass::{run_late, run_on_module, Options};

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
            "--no-warp-ranges" => options.warp_ranges = false,
            "--device-tuning" => options.device_tuning = true,
            "--no-alias-checks" => options.alias_checks = false,
            "--no-loop-merging" => options.loop_merging = false,
            "--no-vector-loads" => options.vector_loads = false,
            "--counted-trips" => options.counted_trips = true,
            "--no-strided-unroll" => options.strided_unroll = false,
            // The driver's `--line-buffer launch`.
            "--launch-sized" => options.launch_sized = true,
            "--stats" => options.stats = true,
            other => panic!("SL1-RUN: unknown option {other}"),
        }
    }
    options
}

/// What one run makes of a case: the options, whether the late stage
/// runs after `run_on_module` (`--late`), and a device rewrite it is made
/// without (`without`: its switch off, or its row of `LATE_REWRITES` left
/// out of the late stage).
#[derive(Clone, Debug, PartialEq)]
struct Run {
    options: Options,
    late: bool,
    without: Option<Rewrite>,
}

/// (prefixes, run) of each `; SL1-RUN:` line of a case: `PREFIX` or
/// `PREFIX,SHARED,...` (FileCheck's `--check-prefixes`: lines of a prefix
/// that several runs share need be written once); `--late` adds the late
/// stage, with device tuning on.
fn runs_of(text: &str) -> Vec<(String, Run)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("; SL1-RUN:"))
        .map(|run| {
            let words: Vec<&str> = run.split_whitespace().collect();
            let (prefix, flags) = words.split_first().expect("SL1-RUN: PREFIX [options]");
            let late = flags.contains(&"--late");
            let flags: Vec<&str> = flags.iter().copied().filter(|f| *f != "--late").collect();
            let mut options = options_of(&flags);
            options.device_tuning |= late;
            let run = Run {
                options,
                late,
                without: None,
            };
            (prefix.to_string(), run)
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

/// Runs the pass on `case` as `run` says and FileCheck with `prefix` (and
/// its lines for this LLVM, `prefixes_of`) on what it leaves; the failure
/// message is FileCheck's.
fn check(case: &Path, prefix: &str, run: &Run) -> Result<(), String> {
    let context = Context::create();
    let module = context
        .create_module_from_ir(MemoryBuffer::create_from_file(case).unwrap())
        .unwrap();
    let options = &run.options;
    run_on_module(&module, options).unwrap();
    module.verify().unwrap();
    if run.late {
        match run.without {
            // `run_late`'s rewrites but one, in its order (then the module
            // verified; the ptxas workaround changes no case's checked lines).
            Some(skip) if LATE_REWRITES.iter().any(|row| row.rewrite == skip) => {
                for row in LATE_REWRITES {
                    if row.rewrite != skip && (row.on)(options) {
                        (row.run)(&module);
                    }
                }
                module.verify().unwrap();
            }
            _ => {
                run_late(&module, options, &mut RewriteCounts::default()).unwrap();
            }
        }
    }
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
        let mut name = case.file_stem().unwrap().to_string_lossy().into_owned();
        if let Some(r) = run.without {
            name += &format!(".without-{}", device_case(r));
        }
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

/// The `.ll` files of `testdata/<dir>` (not those of its folders).
fn cases_in(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata")
        .join(dir);
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
    let cases = cases_in("ll");
    assert!(cases.len() >= 30, "testdata/ll lost its cases: {cases:?}");
    let mut failures = Vec::new();
    for case in &cases {
        let text = std::fs::read_to_string(case).unwrap();
        let runs = runs_of(&text);
        // Every case checks what the default and the paper's options leave.
        for (what, options) in [("default", Options::default()), ("paper", paper())] {
            if !runs.iter().any(|(_, run)| run.options == options) {
                failures.push(format!(
                    "{}: no SL1-RUN line with the {what} options",
                    case.display()
                ));
            }
        }
        check_runs(case, &text, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Checks each run of `case` (whose text is `text`), adding what fails to
/// `failures`.
fn check_runs(case: &Path, text: &str, failures: &mut Vec<String>) {
    for (prefix, run) in runs_of(text) {
        let major = sl1_pass::LLVM_MAJOR;
        if let Some(p) = prefix
            .split(',')
            .find(|p| !has_lines(text, p) && !has_lines(text, &format!("LLVM{major}-{p}")))
        {
            failures.push(format!("{}: no {p} lines for LLVM {major}", case.display()));
            continue;
        }
        if let Err(e) = check(case, &prefix, &run) {
            failures.push(e);
        }
    }
}

/// The path of `rewrite`'s case (`device_case`).
fn device_case_path(rewrite: Rewrite) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../testdata/ll/device/{}.ll", device_case(rewrite)))
}

/// The case of a device rewrite in `testdata/ll/device`: the name of its
/// file in `pass/src/tuning/` (a new rewrite needs a case to compile).
fn device_case(rewrite: Rewrite) -> &'static str {
    match rewrite {
        Rewrite::AliasChecks => "alias_checks",
        Rewrite::ForwardedStores => "forwarded_stores",
        Rewrite::SwitchSelects => "switch_selects",
        Rewrite::CountedTrips => "counted_trips",
        Rewrite::UnrolledStrides => "strided_unroll",
        Rewrite::FrozenDivisions => "frozen_divisions",
        Rewrite::ByteLaneCounts => "byte_lane_counts",
        Rewrite::ByteWords => "byte_words",
        Rewrite::WidenedRangeChecks => "widened_range_checks",
        Rewrite::NarrowSums => "narrow_sums",
        Rewrite::RelaxedCas => "relaxed_cas",
        Rewrite::WarpAtomics => "warp_atomics",
        Rewrite::LoadsFirst => "loads_first",
        Rewrite::VectorLoads => "vector_loads",
        Rewrite::KeptRolled => "kept_rolled",
        Rewrite::IndexedAddresses => "indexed_addresses",
        Rewrite::ExitsAfterLatches => "exit_layout",
    }
}

/// `run` made without `rewrite` (its switch off, or its row of
/// `LATE_REWRITES` left out), or `None` where `run` makes no such rewrite
/// (device tuning, its switch or the late stage off).
fn without(rewrite: Rewrite, run: &Run) -> Option<Run> {
    let options = &run.options;
    if !options.device_tuning {
        return None;
    }
    let mut off = Run {
        without: Some(rewrite),
        ..run.clone()
    };
    match rewrite {
        Rewrite::AliasChecks if options.alias_checks => off.options.alias_checks = false,
        Rewrite::CountedTrips if options.counted_trips => off.options.counted_trips = false,
        Rewrite::UnrolledStrides if options.strided_unroll => off.options.strided_unroll = false,
        // Made with device tuning, which has no switch of its own.
        Rewrite::SwitchSelects | Rewrite::ForwardedStores => off.options.device_tuning = false,
        _ => {
            let row = LATE_REWRITES.iter().find(|row| row.rewrite == rewrite)?;
            if !run.late || !(row.on)(options) {
                return None;
            }
        }
    }
    Some(off)
}

#[test]
fn check_lines_of_the_device_cases_hold() {
    let cases = cases_in("ll/device");
    let named: Vec<PathBuf> = Rewrite::ALL.into_iter().map(device_case_path).collect();
    for case in &named {
        assert!(cases.contains(case), "no device case {}", case.display());
    }
    let mut failures = Vec::new();
    for case in &cases {
        let text = std::fs::read_to_string(case).unwrap();
        if !runs_of(&text)
            .iter()
            .any(|(_, run)| run.options.device_tuning)
        {
            failures.push(format!("{}: no run with device tuning", case.display()));
        }
        check_runs(case, &text, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn device_cases_fail_without_their_rewrite() {
    let mut failures = Vec::new();
    for rewrite in Rewrite::ALL {
        let case = device_case_path(rewrite);
        let text = std::fs::read_to_string(&case).unwrap();
        let mut made = 0;
        for (prefix, run) in runs_of(&text) {
            let Some(off) = without(rewrite, &run) else {
                continue;
            };
            made += 1;
            if check(&case, &prefix, &off).is_ok() {
                failures.push(format!(
                    "{}: the {prefix} lines hold without {rewrite:?}",
                    case.display()
                ));
            }
        }
        if made == 0 {
            failures.push(format!("{}: no run makes {rewrite:?}", case.display()));
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
    let run = Run {
        options: Options::default(),
        late: false,
        without: None,
    };
    let err = check(&case, "CHECK", &run).unwrap_err();
    assert!(err.contains("sl1.no.such.block"), "{err}");
}

#[test]
fn run_lines_name_a_prefix_and_the_driver_flags() {
    let runs = runs_of(
        "; SL1-RUN: CHECK\n; SL1-RUN: PAPER --line-size=16 --cache-read-only\n\
         ; SL1-RUN: TUNED --late --no-vector-loads\n",
    );
    assert_eq!(runs.len(), 3);
    assert_eq!(runs[0].0, "CHECK");
    assert_eq!(runs[1].0, "PAPER");
    let paper = &runs[1].1.options;
    assert!(paper.cache_read_only && paper.max_line_size == 16);
    assert!(!runs[0].1.late && !runs[1].1.late);
    // `--late` turns device tuning on.
    let tuned = &runs[2].1;
    assert!(tuned.late && tuned.options.device_tuning && !tuned.options.vector_loads);
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

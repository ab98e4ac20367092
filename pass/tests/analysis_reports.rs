//! The analysis report of every hand-written IR case, as insta snapshots in
//! `snapshots/`, five golden transformed modules beside them, the
//! snapshots' line budget, plus the errors of `run_on_module`. The IR
//! surgery of every case is checked by its FileCheck lines
//! (`filecheck.rs`).

use std::path::{Path, PathBuf};

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::report::{Decided, Decision, DirectReason};
use sl1_pass::transform::Reason;
use sl1_pass::{run_on_module, Error, Options};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn with_module<T>(path: &Path, f: impl FnOnce(&inkwell::module::Module<'_>) -> T) -> T {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_file(path).unwrap();
    let module = context
        .create_module_from_ir(buffer)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    module
        .verify()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    f(&module)
}

fn ll_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(repo().join("testdata/ll"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 8, "testdata/ll lost its cases");
    cases
}

#[test]
fn report_of_every_ll_case() {
    for case in ll_cases() {
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        let report = with_module(&case, |m| run_on_module(m, &Options::default()).unwrap());
        insta::with_settings!({
            snapshot_path => repo().join("snapshots"),
            prepend_module_to_snapshot => false,
            omit_expression => true,
            input_file => &case,
        }, {
            insta::assert_json_snapshot!(format!("report__{name}"), report);
        });
    }
}

/// The cases whose whole transformed module is kept as a golden snapshot
/// (`snapshots/ir__<case>.snap`, default options, LLVM 22): small ones that
/// between them show the slicing, the decision, line runs, warp copies,
/// flushes before a fence, atomics beside a read stream, two loops of one
/// kernel, an annotated kernel and loops merged. Every case's IR surgery is
/// checked by pass by its FileCheck lines (`filecheck.rs`), under LLVM 22
/// and 19; these modules show the whole of it in a few places.
const GOLDEN_IR: [&str; 5] = [
    "fence_in_loop",
    "atomic_in_loop",
    "two_loops",
    "merged_loops",
    "annotated_kernel",
];

/// The most lines `snapshots/` may hold in all: whole-module snapshots of
/// every case (322,655 lines once) are re-blessed, not read.
const SNAPSHOT_LINE_BUDGET: usize = 30_000;

#[test]
#[cfg_attr(
    feature = "llvm19",
    ignore = "the golden modules are LLVM 22's; LLVM 19's IR is checked by the FileCheck lines"
)]
fn golden_ir_modules() {
    for name in GOLDEN_IR {
        let case = repo().join("testdata/ll").join(format!("{name}.ll"));
        let ir = with_module(&case, |m| {
            run_on_module(m, &Options::default()).unwrap();
            m.verify().unwrap();
            m.print_to_string().to_string()
        });
        // The module's name is the absolute path of the case: leave it out.
        let ir: String = ir
            .lines()
            .filter(|l| !l.starts_with("; ModuleID") && !l.starts_with("source_filename"))
            .map(|l| format!("{l}\n"))
            .collect();
        insta::with_settings!({
            snapshot_path => repo().join("snapshots"),
            prepend_module_to_snapshot => false,
            omit_expression => true,
            input_file => &case,
        }, {
            insta::assert_snapshot!(format!("ir__{name}"), ir);
        });
    }
}

/// The snapshot files of `snapshots/`, as (file name, lines).
fn snapshot_files() -> Vec<(String, usize)> {
    let mut files: Vec<(String, usize)> = std::fs::read_dir(repo().join("snapshots"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let lines = std::fs::read_to_string(&p).unwrap().lines().count();
            (name, lines)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn snapshots_stay_within_their_line_budget() {
    let mut files = snapshot_files();
    let total: usize = files.iter().map(|(_, lines)| lines).sum();
    files.sort_by_key(|(_, lines)| std::cmp::Reverse(*lines));
    let biggest: Vec<String> = files
        .iter()
        .take(5)
        .map(|(name, lines)| format!("{name} ({lines} lines)"))
        .collect();
    assert!(
        total <= SNAPSHOT_LINE_BUDGET,
        "snapshots/ holds {total} lines, more than its budget of {SNAPSHOT_LINE_BUDGET}: \
         check the IR surgery with FileCheck lines in the testdata/ll cases (filecheck.rs) \
         rather than whole-module snapshots. The biggest: {}",
        biggest.join(", ")
    );
}

/// A snapshot no test writes any more is not checked by anything: every
/// file in `snapshots/` is a report of a `testdata/ll` case or a golden
/// module (both written above), or written by the test its `source:`
/// header names, `report__<name>_cu` from `testdata/cu/<name>.cu`
/// (`driver/tests/cuda_builds.rs`).
#[test]
fn every_snapshot_is_written_by_a_test() {
    let cases: Vec<String> = ll_cases()
        .iter()
        .map(|c| c.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut orphans = Vec::new();
    for (file, _) in snapshot_files() {
        let Some(name) = file.strip_suffix(".snap") else {
            orphans.push(format!("{file} (not an insta snapshot)"));
            continue;
        };
        let text = std::fs::read_to_string(repo().join("snapshots").join(&file)).unwrap();
        let source = text
            .lines()
            .find_map(|l| l.strip_prefix("source: "))
            .unwrap_or_default();
        let written = if source == "pass/tests/analysis_reports.rs" {
            name.strip_prefix("report__")
                .is_some_and(|case| cases.iter().any(|c| c == case))
                || name
                    .strip_prefix("ir__")
                    .is_some_and(|case| GOLDEN_IR.contains(&case))
        } else {
            repo().join(source).is_file()
                && name
                    .strip_prefix("report__")
                    .and_then(|n| n.strip_suffix("_cu"))
                    .is_some_and(|cu| repo().join(format!("testdata/cu/{cu}.cu")).is_file())
        };
        if !written {
            orphans.push(format!("{file} (source: {source})"));
        }
    }
    assert!(
        orphans.is_empty(),
        "snapshots no test writes (git rm them): {}",
        orphans.join(", ")
    );
}

#[test]
fn restrict_loop_report_has_the_expected_facts() {
    let report = with_module(&repo().join("testdata/ll/restrict_loop.ll"), |m| {
        run_on_module(m, &Options::default()).unwrap()
    });
    let kernel = &report.kernels[0];
    let ds: Vec<_> = kernel
        .data_structures
        .iter()
        .map(|d| (d.argument.as_str(), d.restrict, d.mode))
        .collect();
    use sl1_pass::analysis::Mode::*;
    assert_eq!(ds, [("in", true, ReadOnly), ("out", true, ReadWrite)]);
    assert_eq!(kernel.loops.len(), 1);
    assert!(kernel.loops[0].main_loop);
    assert!(report.transformed);
    assert_eq!(kernel.transform.loops_sliced, ["loop"]);
    // `in` rides along with `out` (cached only by threads that cache `out`).
    assert_eq!(kernel.transform.accesses_cached, 2);
    let paper = with_module(&repo().join("testdata/ll/restrict_loop.ll"), |m| {
        let options = Options {
            cache_read_only: true,
            ..Options::default()
        };
        run_on_module(m, &options).unwrap()
    });
    assert_eq!(paper.kernels[0].transform.accesses_cached, 2);
}

#[test]
fn host_modules_are_refused() {
    let err = with_module(&repo().join("testdata/bad/host_module.ll"), |m| {
        run_on_module(m, &Options::default()).unwrap_err()
    });
    assert!(matches!(err, Error::NotDeviceModule { ref triple } if triple.starts_with("x86_64")));
}

#[test]
fn invalid_options_are_refused() {
    let case = repo().join("testdata/ll/restrict_loop.ll");
    let bad_line = Options {
        line_size: 12,
        ..Options::default()
    };
    let err = with_module(&case, |m| run_on_module(m, &bad_line).unwrap_err());
    assert!(err.to_string().contains("line size 12"), "{err}");
    let bad_threshold = Options {
        threshold: 0,
        ..Options::default()
    };
    assert!(with_module(&case, |m| run_on_module(m, &bad_threshold)).is_err());
}

#[test]
fn statistics_build_counts_into_a_visible_global() {
    let stats = Options {
        stats: true,
        ..Options::default()
    };
    for case in ["restrict_loop.ll", "aliased_inplace.ll", "two_loops.ll"] {
        let (report, ir) = with_module(&repo().join("testdata/ll").join(case), |m| {
            let report = run_on_module(m, &stats).unwrap();
            m.verify().unwrap_or_else(|e| panic!("{case}: {e}"));
            (report, m.print_to_string().to_string())
        });
        let kernel = &report.kernels[0];
        let symbol = kernel.transform.stats_symbol.as_deref().unwrap();
        assert_eq!(symbol, format!("sl1_stats_{}", kernel.name));
        let rows = kernel.data_structures.len() * 6;
        let global = format!("@{symbol} = addrspace(1) global [{rows} x i64] zeroinitializer");
        assert!(ir.contains(&global), "{case}: no `{global}` in\n{ir}");
        // Decisions (4 counters per structure) and hit/miss flushes are atomic adds.
        assert!(
            ir.matches("atomicrmw add ptr addrspace(1)").count() >= 6,
            "{case}: too few counter updates\n{ir}"
        );
    }
    // Without the option: no counters, and the report says nothing of them.
    let plain = with_module(&repo().join("testdata/ll/restrict_loop.ll"), |m| {
        run_on_module(m, &Options::default()).unwrap()
    });
    assert_eq!(plain.kernels[0].transform.stats_symbol, None);
    let json = serde_json::to_string(&plain).unwrap();
    assert!(!json.contains("stats"), "{json}");
}

#[test]
fn block_and_grid_stride_loops_are_left_as_they_are() {
    let report = with_module(&repo().join("testdata/ll/stride_loops.ll"), |m| {
        let report = run_on_module(m, &Options::default()).unwrap();
        m.verify().unwrap();
        report
    });
    let t = &report.kernels[0].transform;
    assert_eq!(t.loops_sliced, ["walk"]);
    let stride = |at: &str, scope: &str, registers: &str| Reason::CooperativeStride {
        loop_at: at.into(),
        scope: scope.into(),
        registers: registers.into(),
    };
    assert!(
        t.reasons.contains(&stride("block", "block", "ntid.x")),
        "{:?}",
        t.reasons
    );
    assert!(
        t.reasons
            .contains(&stride("grid", "grid", "ntid.x * nctaid.x")),
        "{:?}",
        t.reasons
    );
}

/// Two rows read at a distance the analysis cannot tell, each moving a
/// constant 512 B per iteration (a block-stride loop whose step the source
/// fixes: HeCBench's all-pairs-distance). They were monitored and cached
/// (0.41x of the build without S-L1 on the H100, 2026-11-25); no access
/// finds its line again, whatever the distance: left direct, statically.
#[test]
fn accesses_a_line_apart_per_iteration_miss_at_any_distance() {
    let report = with_module(&repo().join("testdata/ll/rows_by_block_stride.ll"), |m| {
        run_on_module(m, &Options::default()).unwrap()
    });
    let t = &report.kernels[0].transform;
    assert!(!t.applied, "{:?}", t.reasons);
    let data = &t.predictions[0];
    assert_eq!(
        (data.argument.as_str(), data.stride, data.hit_percent),
        ("data", Some(512), Some(0))
    );
    assert!(
        matches!(
            data.decision,
            Decision::Direct {
                reason: DirectReason::LowHitRate { .. }
            }
        ),
        "{:?}",
        data.decision
    );
}

#[test]
fn strides_predict_hit_rates_or_say_why_not() {
    let report = with_module(&repo().join("testdata/ll/predicted_strides.ll"), |m| {
        run_on_module(m, &Options::default()).unwrap()
    });
    let predictions = |kernel: &str| {
        let k = report.kernels.iter().find(|k| k.name == kernel).unwrap();
        k.transform
            .predictions
            .iter()
            .map(|p| {
                (
                    p.argument.clone(),
                    p.stride,
                    p.hit_percent,
                    p.decision.clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    let walk = predictions("pointer_walk");
    assert_eq!(
        walk.iter()
            .map(|(a, s, h, _)| (a.as_str(), *s, *h))
            .collect::<Vec<_>>(),
        [
            ("in", Some(2), Some(87)),
            ("w", Some(4), Some(87)),
            ("out", Some(2), Some(87)),
        ]
    );
    let statically = |d: &Decision| {
        matches!(
            d,
            Decision::Cached {
                decided: Some(Decided::Statically),
                ..
            }
        )
    };
    assert!(walk.iter().all(|p| statically(&p.3)), "{walk:?}");

    let column = report.kernels.iter().find(|k| k.name == "column").unwrap();
    assert!(!column.transform.applied);
    assert!(predictions("column")
        .iter()
        .all(|(_, s, h, d)| *s == Some(256)
            && *h == Some(0)
            && matches!(d, Decision::Direct { .. })));

    // An indirect structure stays direct; the others are decided statically
    // (no monitoring for the loop).
    let mixed = predictions("mixed");
    assert!(statically(&mixed[0].3), "{mixed:?}");
    assert_eq!(
        mixed[2].3,
        Decision::Direct {
            reason: DirectReason::Indirect
        },
        "{mixed:?}"
    );
    assert!(predictions("sometimes").iter().any(|p| matches!(
        &p.3,
        Decision::Direct { reason: DirectReason::Unpredicted { why } }
            if why.contains("some iterations only")
    )));

    // Off, the same loops are monitored and nothing is predicted.
    let off = with_module(&repo().join("testdata/ll/predicted_strides.ll"), |m| {
        let options = Options {
            static_prediction: false,
            ..Options::default()
        };
        run_on_module(m, &options).unwrap()
    });
    assert!(off
        .kernels
        .iter()
        .all(|k| k.transform.predictions.is_empty()));
}

#[test]
fn shared_memory_counts_per_kernel_and_a_small_buffer_serves_the_first_warps() {
    let report = with_module(&repo().join("testdata/ll/shared_per_kernel.ll"), |m| {
        run_on_module(m, &Options::default()).unwrap()
    });
    let kernel = |name: &str| report.kernels.iter().find(|k| k.name == name).unwrap();
    let crowded = &kernel("crowded").transform;
    assert!(crowded.applied);
    assert_eq!(crowded.kernel_shared_bytes, 40960);
    assert_eq!(crowded.shared_bytes, 48 * 1024 - 40960);
    // 409 lines of 16 B with 4 B of padding: one line each for 12 warps,
    // two for none.
    assert_eq!(crowded.line_pad_bytes, 4);
    assert_eq!(crowded.warps_with_lines, Some(0));
    assert_eq!(crowded.warps_with_a_line, Some(12));
    let roomy = &kernel("roomy").transform;
    assert_eq!(roomy.kernel_shared_bytes, 0);
    assert_eq!(roomy.shared_bytes, 1024 * 2 * (16 + 4));
    assert_eq!(roomy.warps_with_lines, None);
}

#[test]
fn line_runs_where_strides_and_exit_tests_allow() {
    let report = with_module(&repo().join("testdata/ll/line_runs.ll"), |m| {
        run_on_module(m, &Options::default()).unwrap()
    });
    let runs = |name: &str| {
        let k = report.kernels.iter().find(|k| k.name == name).unwrap();
        assert!(k.transform.applied, "{name}");
        assert_eq!(k.transform.line_runs.len(), 1, "{name}");
        k.transform.line_runs[0].clone()
    };
    for counted in ["counted", "narrow", "spread"] {
        let r = runs(counted);
        assert!(
            r.applied && r.detail.contains("or exit test"),
            "{counted}: {r:?}"
        );
        // The loops only read `in`: its next line is staged.
        assert!(
            r.detail
                .contains("the next line of `in` is loaded a run ahead"),
            "{counted}: {r:?}"
        );
    }
    let stops = runs("stops");
    assert!(
        stops.applied
            && stops.detail.contains("keep the exit test")
            && !stops.detail.contains("loaded a run ahead"),
        "{stops:?}"
    );
    let backward = runs("backward");
    assert!(
        !backward.applied && backward.detail.contains("not forward"),
        "{backward:?}"
    );

    // Off, nothing is reported or done.
    let off = with_module(&repo().join("testdata/ll/line_runs.ll"), |m| {
        let options = Options {
            line_runs: false,
            ..Options::default()
        };
        run_on_module(m, &options).unwrap()
    });
    assert!(off.kernels.iter().all(|k| k.transform.line_runs.is_empty()));
}

#[test]
fn each_summary_line_says_what_it_tells() {
    use sl1_pass::report::Finding;
    let report = with_module(&repo().join("testdata/ll/lone_lane.ll"), |m| {
        run_on_module(m, &Options::default()).unwrap()
    });
    let entries: Vec<_> = report
        .kernels
        .iter()
        .flat_map(|k| k.summary_entries())
        .collect();
    let finding = |text: &str| {
        entries
            .iter()
            .find(|e| e.text.starts_with(text))
            .unwrap_or_else(|| panic!("no line starting `{text}`: {entries:?}"))
            .finding
    };
    // A transformed kernel's headline, a kernel left alone, an analysis fact.
    assert_eq!(finding("S-L1: "), Finding::Done);
    assert_eq!(finding("not transformed: "), Finding::Missed);
    assert_eq!(finding("data structure "), Finding::Analysis);
    assert!(entries
        .iter()
        .filter(|e| e.text.starts_with("structure `"))
        .all(|e| e.finding == Finding::Analysis && e.loop_header.is_some()));
}

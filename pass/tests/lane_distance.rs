//! The lane test (`transform/lanes.rs`): structures a thread only reads or
//! only writes, in pieces of 4 B or more, are cached only where a warp's
//! neighbouring lanes access them at least an L1 line apart, which the
//! decision measures with a shuffle; loops with a read-modify-write or a
//! narrow structure, and loops with a block barrier, keep the decision they
//! had. Without
//! the test, S-L1 ran `soa` at 0.80x and `vec16` at 0.87x of the build
//! without it on the H100 (2026-11-25), where lanes 25 and 62 B apart share
//! the hardware's lines.

use std::path::Path;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::values::AnyValue;
use sl1_pass::{run_on_module, Options, Report};

/// The report of `testdata/ll/<case>.ll` under the default options, and each
/// kernel's IR after the pass.
fn transform(case: &str) -> (Report, Vec<(String, String)>) {
    transform_with(case, &Options::default())
}

fn transform_with(case: &str, options: &Options) -> (Report, Vec<(String, String)>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/ll")
        .join(format!("{case}.ll"));
    let context = Context::create();
    let module = context
        .create_module_from_ir(MemoryBuffer::create_from_file(&path).unwrap())
        .unwrap();
    let report = run_on_module(&module, options).unwrap();
    module.verify().unwrap();
    let bodies = module
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0)
        .map(|f| {
            (
                f.get_name().to_string_lossy().into_owned(),
                f.print_to_string().to_string(),
            )
        })
        .collect();
    (report, bodies)
}

fn tested(report: &Report, kernel: &str) -> Vec<String> {
    let k = report.kernels.iter().find(|k| k.name == kernel).unwrap();
    assert!(k.transform.applied, "{kernel} was not transformed");
    k.transform
        .lane_tests
        .iter()
        .flat_map(|t| t.arguments.clone())
        .collect()
}

fn body<'a>(bodies: &'a [(String, String)], kernel: &str) -> &'a str {
    &bodies.iter().find(|(n, _)| n == kernel).unwrap().1
}

#[test]
fn read_only_and_write_only_words_are_cached_only_where_lanes_lie_apart() {
    let (report, bodies) = transform("lane_distance");
    assert_eq!(tested(&report, "copy_words"), ["in", "out"]);
    let ir = body(&bodies, "copy_words");
    // One neighbour's address per tested structure, compared with a line.
    assert_eq!(
        ir.matches("@llvm.nvvm.shfl.sync.bfly.i32(").count(),
        2,
        "{ir}"
    );
    assert!(ir.contains("%sl1.lanes.apart"), "{ir}");
}

#[test]
fn a_monitored_loop_whose_lanes_are_all_close_skips_monitoring() {
    let monitored = Options {
        static_prediction: false,
        ..Options::default()
    };
    let (report, bodies) = transform_with("lane_distance", &monitored);
    assert_eq!(tested(&report, "copy_words"), ["in", "out"]);
    let ir = body(&bodies, "copy_words");
    // The preheader tests both structures, then the decision tests them again.
    assert_eq!(
        ir.matches("@llvm.nvvm.shfl.sync.bfly.i32(").count(),
        4,
        "{ir}"
    );
    let preheader = ir.split("\nsl1.preheader:").nth(1).expect("a preheader");
    let branch = preheader
        .lines()
        .find(|l| l.trim_start().starts_with("br "))
        .unwrap();
    assert!(
        branch.contains("label %sl1.decide") && branch.contains(".sl1.monitor"),
        "the preheader goes to monitoring only: {branch}"
    );
}

#[test]
fn loops_with_read_modify_write_or_narrow_structures_are_not_tested() {
    let (report, bodies) = transform("lane_distance");
    for kernel in ["add_in_place", "accumulate", "copy_bytes"] {
        assert!(tested(&report, kernel).is_empty(), "{kernel}");
        assert!(!body(&bodies, kernel).contains("sl1.lanes"), "{kernel}");
    }
}

#[test]
fn loops_with_a_block_barrier_keep_one_decision_for_the_block() {
    let (report, bodies) = transform("barrier_in_loop");
    for k in &report.kernels {
        assert!(k.transform.lane_tests.is_empty(), "{}", k.name);
    }
    assert!(bodies.iter().all(|(_, ir)| !ir.contains("sl1.lanes")));
}

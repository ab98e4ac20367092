//! Grid-stride loops unrolled (`sl1_pass::tuning::unroll_strided_loops`):
//! after LLVM's optimizer and code generation, the loop of
//! `testdata/ll/device/strided_unroll.ll`'s `@grid_stride` reads four
//! elements an iteration (eight with LLVM 19), without `.pragma "nounroll"` (ptxas may unroll it
//! further, as it does nvcc's), and its remainder loop one, with the pragma;
//! both end in a conditional branch back (`exit_layout`), the shape ptxas
//! unrolls. Without the rewrite LLVM leaves it rolled: its trip count is a
//! division.

use inkwell::context::Context;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::FileType;
use sl1_pass::{run_late, run_on_module, tuning::RewriteCounts, Options};

mod common;
use common::{load_case, nvptx_machine};

/// The PTX of `@grid_stride` after the pass (`strided_unroll` on or off),
/// `default<O3>` and the late stage, as the driver builds it.
fn grid_stride_ptx(strided_unroll: bool) -> String {
    let context = Context::create();
    let module = load_case(&context, "device/strided_unroll");
    let options = Options {
        device_tuning: true,
        strided_unroll,
        ..Options::default()
    };
    run_on_module(&module, &options).unwrap();
    let machine = nvptx_machine();
    module
        .run_passes("default<O3>", &machine, PassBuilderOptions::create())
        .unwrap();
    run_late(&module, &options, &mut RewriteCounts::default()).unwrap();
    let ptx = machine
        .write_to_memory_buffer(&module, FileType::Assembly)
        .unwrap();
    let ptx = String::from_utf8_lossy(ptx.as_slice()).into_owned();
    let start = ptx
        .find(".func grid_stride(")
        .expect("grid_stride in the PTX");
    let end = ptx[start..].find("\n}").unwrap() + start;
    ptx[start..end].to_string()
}

#[test]
fn the_grid_stride_loop_reads_four_elements_an_iteration() {
    let ptx = grid_stride_ptx(true);
    // Four loads an iteration and the remainder's (LLVM 19's PTX has a
    // loop of eight and four more before the remainder).
    assert!(ptx.matches("ld.global").count() >= 5, "{ptx}");
    assert_eq!(ptx.matches(".pragma \"nounroll\"").count(), 1, "{ptx}");
    // No loop ends in an unconditional branch back to an earlier label.
    let lines: Vec<&str> = ptx.lines().map(str::trim).collect();
    let label_line = |label: &str| lines.iter().position(|l| *l == format!("{label}:"));
    for (i, line) in lines.iter().enumerate() {
        if let Some(target) = line
            .strip_prefix("bra.uni")
            .map(|t| t.trim().trim_end_matches(';'))
        {
            let back = label_line(target).is_some_and(|at| at < i);
            assert!(!back, "an unconditional branch back at line {i}:\n{ptx}");
        }
    }
    let rolled = grid_stride_ptx(false);
    assert_eq!(rolled.matches("ld.global").count(), 1, "{rolled}");
}

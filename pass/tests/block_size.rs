//! A transformed kernel without launch bounds declares the block size its
//! line buffer is sized for (`nvvm.maxntid`), so that ptxas keeps its
//! registers within what a block of that size may use: without it, S-L1's
//! builds of `soa` (96 registers) and `scatter` (72) could not be launched
//! with 1024 threads a block where the builds without S-L1 ran (H100,
//! 2026-11-25). Kernels with bounds keep theirs; kernels left alone get none.

use std::path::Path;

use inkwell::attributes::AttributeLoc;
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::{run_on_module, Options};

/// The `nvvm.maxntid` (or LLVM 19's `maxntidx` annotation) of each kernel of `testdata/ll/<case>.ll` after the
/// pass under `options`.
fn block_sizes(case: &str, options: &Options) -> Vec<(String, Option<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/ll")
        .join(format!("{case}.ll"));
    let context = Context::create();
    let module = context
        .create_module_from_ir(MemoryBuffer::create_from_file(&path).unwrap())
        .unwrap();
    run_on_module(&module, options).unwrap();
    module.verify().unwrap();
    module
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0)
        .map(|f| {
            // LLVM 22 keeps launch bounds in an attribute, LLVM 19 in
            // `!nvvm.annotations`.
            let name = f.get_name().to_string_lossy().into_owned();
            let bound = f
                .get_string_attribute(AttributeLoc::Function, "nvvm.maxntid")
                .map(|a| a.get_string_value().to_string_lossy().into_owned())
                .or_else(|| {
                    sl1_pass::llvm::ir::annotated_max_threads(&module, &name).map(|n| n.to_string())
                });
            (name, bound)
        })
        .collect()
}

#[test]
fn a_transformed_kernel_declares_the_block_size_of_its_buffer() {
    let sizes = block_sizes("restrict_loop", &Options::default());
    assert_eq!(
        sizes,
        [("restrict_loop".to_string(), Some("1024".to_string()))]
    );
    let small = Options {
        max_threads: 256,
        ..Options::default()
    };
    assert_eq!(
        block_sizes("restrict_loop", &small)[0].1.as_deref(),
        Some("256")
    );
}

#[test]
fn declared_bounds_stay_and_untouched_kernels_get_none() {
    let bounded = block_sizes("launch_bounds", &Options::default());
    assert!(
        bounded.iter().all(|(_, b)| b.as_deref() == Some("256")),
        "{bounded:?}"
    );
    let report_only = Options {
        transform: false,
        ..Options::default()
    };
    let untouched = block_sizes("restrict_loop", &report_only);
    assert_eq!(untouched[0].1, None);
    let no_loop = block_sizes("no_loop", &Options::default());
    assert!(no_loop.iter().all(|(_, b)| b.is_none()), "{no_loop:?}");
}

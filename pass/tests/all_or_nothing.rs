//! The transform is all-or-nothing per kernel: when it fails inside one
//! kernel (here on request, after it changed the body), that kernel is left
//! exactly as it was and the report says why; the others are transformed.

use std::path::Path;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::values::AnyValue;
use sl1_pass::transform::Reason;
use sl1_pass::{run_on_module, Options};

fn load(context: &Context) -> inkwell::module::Module<'_> {
    load_case(context, "line_runs")
}

fn load_case<'c>(context: &'c Context, case: &str) -> inkwell::module::Module<'c> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../testdata/ll/{case}.ll"));
    let buffer = MemoryBuffer::create_from_file(&path).unwrap();
    context.create_module_from_ir(buffer).unwrap()
}

fn text_of(module: &inkwell::module::Module<'_>, name: &str) -> String {
    module
        .get_function(name)
        .unwrap()
        .print_to_string()
        .to_string()
}

#[test]
fn a_failing_kernel_is_left_exactly_as_it_was() {
    let context = Context::create();
    let plain = load(&context);
    let normal = run_on_module(&plain, &Options::default()).unwrap();
    assert!(!normal.bodies_restored);
    let transformed: Vec<&str> = normal
        .kernels
        .iter()
        .filter(|k| k.transform.applied)
        .map(|k| k.name.as_str())
        .collect();
    assert!(transformed.len() >= 2, "{transformed:?}");
    let (victim, other) = (transformed[0], transformed[1]);

    let module = load(&context);
    let before = text_of(&module, victim);
    let globals_before = module.get_globals().count();
    let options = Options {
        fail_kernel_for_testing: Some(victim.to_string()),
        ..Options::default()
    };
    let report = run_on_module(&module, &options).unwrap();
    module.verify().unwrap();
    assert_eq!(text_of(&module, victim), before);
    // The plugin then tells LLVM the module changed: the restored body's
    // blocks are new, and analyses cached for the old ones must go.
    assert!(report.bodies_restored);
    let k = report.kernels.iter().find(|k| k.name == victim).unwrap();
    assert!(!k.transform.applied);
    assert!(
        matches!(&k.transform.reasons[..], [Reason::InternalError { .. }]),
        "{:?}",
        k.transform.reasons
    );
    assert!(k.transform.reasons[0]
        .to_string()
        .contains("left exactly as it was"));
    let o = report.kernels.iter().find(|k| k.name == other).unwrap();
    assert!(o.transform.applied, "{:?}", o.transform.reasons);
    assert!(module
        .get_functions()
        .all(|f| !f.get_name().to_string_lossy().contains("sl1.backup")));
    // The failed attempt's line buffer is gone; the other kernels' stay.
    let buffers = |m: &inkwell::module::Module<'_>| {
        m.get_globals()
            .filter(|g| g.get_name().to_string_lossy().contains(victim))
            .count()
    };
    assert_eq!(buffers(&module), 0);
    assert!(module.get_globals().count() > globals_before);
}

/// A merge that fails (on request, once made) is undone with the peels
/// made before it: the kernel comes back exactly as it was, and the report
/// names the failure.
#[test]
fn a_failing_merge_is_undone_with_its_peels() {
    let context = Context::create();
    let plain = load_case(&context, "merged_loops");
    let tuned = Options {
        device_tuning: true,
        ..Options::default()
    };
    let normal = run_on_module(&plain, &tuned).unwrap();
    let tuning = normal.device_rewrites.unwrap();
    assert!(
        tuning
            .merged_loops
            .iter()
            .any(|m| m.kernel == "pattern" && !m.peeled.is_empty()),
        "{tuning:?}"
    );

    let module = load_case(&context, "merged_loops");
    let before = text_of(&module, "pattern");
    let options = Options {
        fail_kernel_for_testing: Some("pattern".to_string()),
        ..tuned
    };
    let report = run_on_module(&module, &options).unwrap();
    module.verify().unwrap();
    assert_eq!(text_of(&module, "pattern"), before);
    assert!(report.bodies_restored);
    let tuning = report.device_rewrites.as_ref().unwrap();
    assert!(!tuning.merged_loops.iter().any(|m| m.kernel == "pattern"));
    assert!(
        tuning
            .kept_nested
            .iter()
            .any(|k| k.kernel == "pattern" && k.failed && k.reason.contains("left as it was")),
        "{tuning:?}"
    );
    assert!(report.internal_failure().is_some());
    // The other kernels still merge.
    assert!(tuning.merged_loops.iter().any(|m| m.kernel != "pattern"));
}

/// A failing kernel with debug information comes back with every location
/// under its own subprogram: the saved copy's subprogram is a clone, and a
/// body moved back from the copy kept locations under it, which the
/// verifier rejects (clang then stopped with an error instead of building
/// the kernel untransformed).
#[test]
fn a_failing_kernel_with_line_tables_comes_back_valid() {
    let context = Context::create();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/debug/rows_line_tables.ll");
    let buffer = MemoryBuffer::create_from_file(&path).unwrap();
    let module = context.create_module_from_ir(buffer).unwrap();
    let before = text_of(&module, "rows");
    let options = Options {
        fail_kernel_for_testing: Some("rows".to_string()),
        ..Options::default()
    };
    let report = run_on_module(&module, &options).unwrap();
    assert!(report.bodies_restored);
    module.verify().unwrap();
    assert_eq!(text_of(&module, "rows"), before);
}

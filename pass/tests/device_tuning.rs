//! The driver's device tuning (`sl1_pass::tuning`) on `testdata/ll/device_tuning.ll`:
//! which switches become selects, which divisions are frozen, and that the
//! selected code computes what the switch did (run in LLVM's interpreter for
//! every input byte).

use std::path::{Path, PathBuf};

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::values::AnyValue;
use sl1_pass::tuning::{freeze_divisions, select_switches};

fn case() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("testdata/ll/device_tuning.ll")
}

fn load(context: &Context) -> Module<'_> {
    let buffer = MemoryBuffer::create_from_file(&case()).unwrap();
    context.create_module_from_ir(buffer).unwrap()
}

fn function_text(module: &Module<'_>, name: &str) -> String {
    module
        .get_function(name)
        .unwrap_or_else(|| panic!("no function {name}"))
        .print_to_string()
        .to_string()
}

#[test]
fn only_switches_that_choose_values_become_selects() {
    let context = Context::create();
    let module = load(&context);
    assert_eq!(select_switches(&module), 1);
    module.verify().unwrap();
    let decode = function_text(&module, "decode");
    assert!(!decode.contains("switch"), "{decode}");
    // Four values of `%code` besides its default, one of `%base`.
    assert_eq!(decode.matches(" select ").count(), 5, "{decode}");
    assert!(function_text(&module, "stores").contains("switch"));
    assert!(function_text(&module, "many").contains("switch"));
    // Nothing left to do a second time.
    assert_eq!(select_switches(&module), 0);
}

#[test]
fn selects_compute_what_the_switch_did() {
    let context = Context::create();
    let original = load(&context);
    let tuned = load(&context);
    assert_eq!(select_switches(&tuned), 1);
    let run = |module: &Module<'_>, c: u64| {
        let engine = module.create_interpreter_execution_engine().unwrap();
        let f = module.get_function("decode").unwrap();
        let arg = context.i8_type().create_generic_value(c, false);
        // SAFETY: `decode` takes one i8 and returns an i32.
        let result = unsafe { engine.run_function(f, &[&arg]) }.as_int(true) as i32;
        engine.remove_module(module).unwrap();
        result
    };
    for c in 0..=255u64 {
        assert_eq!(run(&tuned, c), run(&original, c), "byte {c}");
    }
}

#[test]
fn divisions_are_frozen_only_for_nested_loops() {
    let context = Context::create();
    let module = load(&context);
    assert_eq!(freeze_divisions(&module), 1);
    module.verify().unwrap();
    let columns = function_text(&module, "columns");
    assert!(columns.contains("freeze i64 %col"), "{columns}");
    assert!(!columns.contains("freeze i64 %row"), "{columns}");
    assert!(
        columns.contains("getelementptr i32, ptr %b, i64 %"),
        "{columns}"
    );
    assert!(
        !columns.contains("getelementptr i32, ptr %b, i64 %col"),
        "{columns}"
    );
}

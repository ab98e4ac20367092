//! Loads a `testdata/ll` case and runs the pass on one, as the focused tests
//! of the pass need it: the report, and the transformed text of each
//! function; and the NVPTX target machine the tests that lower to PTX use.

// Each test file uses part of this.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::values::AnyValue;
use sl1_pass::transform::TransformReport;
use sl1_pass::{run_on_module, Options, Report};

/// A `testdata/ll` case after the pass.
pub struct Transformed {
    pub report: Report,
    functions: BTreeMap<String, String>,
}

impl Transformed {
    /// The transformed text of function `name`.
    pub fn text(&self, name: &str) -> &str {
        self.functions
            .get(name)
            .unwrap_or_else(|| panic!("no function {name}"))
    }

    /// What the transform did to kernel `name`.
    pub fn kernel(&self, name: &str) -> &TransformReport {
        &self
            .report
            .kernels
            .iter()
            .find(|k| k.name == name)
            .unwrap_or_else(|| panic!("no kernel {name}"))
            .transform
    }
}

/// `testdata/ll/<case>.ll` parsed into a module of `context`.
pub fn load_case<'c>(context: &'c Context, case: &str) -> Module<'c> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/ll")
        .join(format!("{case}.ll"));
    let buffer = MemoryBuffer::create_from_file(&path).unwrap();
    context.create_module_from_ir(buffer).unwrap()
}

/// Runs the pass on `testdata/ll/<case>.ll` under `options` and verifies
/// the module it leaves.
pub fn transform_case(case: &str, options: &Options) -> Transformed {
    let context = Context::create();
    let module = load_case(&context, case);
    let report = run_on_module(&module, options).unwrap();
    module.verify().unwrap();
    let functions = module
        .get_functions()
        .map(|f| {
            (
                f.get_name().to_string_lossy().into_owned(),
                f.print_to_string().to_string(),
            )
        })
        .collect();
    Transformed { report, functions }
}

/// Every `.rs` file under `dir`, at any depth.
pub fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The default options with lines of at most 32 B in every kernel: no
/// longer lines for loops that only read or only stream, where a test is
/// about something else.
pub fn short_lines() -> Options {
    Options {
        read_only_max_line_size: 32,
        stream_max_line_size: 32,
        ..Options::default()
    }
}

/// An NVPTX target machine for sm_90 at -O3, as the driver lowers with.
pub fn nvptx_machine() -> inkwell::targets::TargetMachine {
    use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetTriple};
    Target::initialize_nvptx(&InitializationConfig::default());
    let triple = TargetTriple::create("nvptx64-nvidia-cuda");
    Target::from_triple(&triple)
        .unwrap()
        .create_target_machine(
            &triple,
            "sm_90",
            "",
            inkwell::OptimizationLevel::Aggressive,
            RelocMode::Default,
            CodeModel::Default,
        )
        .unwrap()
}

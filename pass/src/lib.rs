//! S-L1: a software L1 cache for CUDA kernels, inserted by an LLVM pass.
//!
//! `run_on_module` is the one entry point: the clang plugin (`plugin`), the
//! driver's IR path and the tests all call it.

pub mod analysis;
mod edit;
pub mod error;
pub mod ir;
pub mod options;
mod plugin;
pub mod profile;
pub mod report;
mod runtime;
pub mod transform;
pub mod tuning;

use inkwell::module::Module;

pub use error::Error;
pub use options::Options;
pub use report::Report;

/// Analyses every kernel of a device module and reports what it found.
pub fn run_on_module(module: &Module<'_>, options: &Options) -> Result<Report, Error> {
    options.validate()?;
    if !analysis::is_device_module(module) {
        return Err(Error::NotDeviceModule {
            triple: ir::target_triple(module),
        });
    }
    let mut kernels = Vec::new();
    for f in analysis::find_kernels(module) {
        let mut kernel = report::KernelReport::from_analysis(&analysis::analyse_kernel(module, f));
        kernel.transform = transform::transform_kernel(module, f, options);
        kernels.push(kernel);
    }
    let device_tuning = options.device_tuning.then(|| tuning::TuningReport {
        selected_switches: tuning::select_switches(module),
        frozen_divisions: 0,
    });
    if let Err(message) = module.verify() {
        return Err(Error::Broken {
            message: message.to_string(),
        });
    }
    Ok(Report {
        source: module_source_name(module),
        target: ir::target_triple(module),
        options: options.clone(),
        transformed: device_tuning
            .as_ref()
            .is_some_and(|t| t.selected_switches > 0)
            || kernels.iter().any(|k| k.transform.applied),
        device_tuning,
        kernels,
    })
}

/// The file name (without directories) LLVM records as the module's source.
fn module_source_name(module: &Module<'_>) -> String {
    let full = module.get_source_file_name().to_string_lossy().into_owned();
    std::path::Path::new(&full)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or(full)
}

//! Failures the driver explains to its user.

use std::path::PathBuf;

use thiserror::Error;

#[derive(Debug, Error)]
pub enum DriverError {
    #[error("unknown GPU architecture `{arch}`; use --arch with one of: {known}")]
    UnknownArch { arch: String, known: String },
    #[error("--arch native: no GPU found here ({why}); name the architecture: --arch sm_XX")]
    NoNativeGpu { why: String },
    #[error("--emit {emit} makes one architecture's code, and {archs} are named; give one --arch, or build an executable or object (-c), which carries each")]
    SeveralArchs { emit: String, archs: String },
    #[error("{path}: a C or C++ source has no device code to emit as {emit}; give a .cu, or compile it as CUDA with -x cu")]
    NoDeviceCode { path: PathBuf, emit: String },
    #[error("the link of {output} failed ({tool}, {status}); its diagnostics are above")]
    LinkFailed {
        output: PathBuf,
        tool: String,
        status: String,
    },
    #[error("a dependency file is one source's, and {count} inputs are given; build each source with -c and its own --dep-file (nvcc's -MF)")]
    DepsOfSeveral { count: usize },
    #[error("{path}: input not found")]
    InputNotFound { path: PathBuf },
    #[error("{path}: unsupported input; give a CUDA source (.cu) or device IR (.ll, .bc)")]
    UnsupportedInput { path: PathBuf },
    #[error("{path}: cannot be linked into an executable; give CUDA sources (.cu), C or C++ sources (.c, .cpp, .cc, .cxx) or object files (.o)")]
    UnsupportedPart { path: PathBuf },
    #[error("{count} inputs make one executable; give one input to emit {emit} (each source with -c, then link the objects)")]
    SeveralInputs { count: usize, emit: String },
    #[error("{path}: an executable needs host code; build it from the .cu file, or use --emit ptx|cubin|ll|bc")]
    ExeFromIr { path: PathBuf },
    #[error("{what} not found{searched}; fix: {fix}")]
    ToolMissing {
        what: &'static str,
        searched: String,
        fix: String,
    },
    #[error("{path}: {message}")]
    InvalidIr { path: PathBuf, message: String },
    #[error("the S-L1 plugin {plugin} is built for LLVM {plugin_llvm}, but {clang} is clang {clang_llvm}: loaded there it would crash clang; fix: {fix}")]
    PluginMismatch {
        plugin: PathBuf,
        plugin_llvm: u32,
        clang: PathBuf,
        clang_llvm: u32,
        fix: String,
    },
    #[error("{clang} is clang {llvm}; S-L1 has plugins for LLVM {supported}: pass --clang with one of those (clang++-22, clang++-19)")]
    UnsupportedClang {
        clang: PathBuf,
        llvm: u32,
        supported: String,
    },
    #[error("cannot write {path}: {message}")]
    CannotWrite { path: PathBuf, message: String },
    #[error("{path}: {tool} failed ({status}); its diagnostics are above")]
    PhaseFailed {
        path: PathBuf,
        tool: String,
        status: String,
    },
}

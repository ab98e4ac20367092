//! ptxas, from PTX text to a cubin: the GPU loads cubins directly, where
//! PTX would be JIT-compiled by the driver one module at a time on the GPU
//! thread (the old runner's bottleneck); ptxas runs on the builder threads.

use std::path::{Path, PathBuf};
use std::process::Command;

use thiserror::Error;

/// The architecture the cubins are for (the H100).
pub const ARCH: &str = "sm_90";

#[derive(Debug, Error)]
pub enum PtxasError {
    #[error("ptxas not found: give --ptxas PATH, set CUDA_PATH, or put ptxas on PATH")]
    NotFound,
    #[error("{0} is not a file")]
    NotAFile(PathBuf),
}

/// A located ptxas.
#[derive(Clone, Debug)]
pub struct Ptxas {
    pub path: PathBuf,
    /// ptxas' `-O` level: 3 (its default) for cubins that run.
    pub level: u8,
}

impl Ptxas {
    /// `explicit`, else `$CUDA_PATH/bin/ptxas`, else `ptxas` on PATH.
    pub fn locate(explicit: Option<&Path>) -> Result<Ptxas, PtxasError> {
        if let Some(path) = explicit {
            return if path.is_file() {
                Ok(Ptxas::at(path.into()))
            } else {
                Err(PtxasError::NotAFile(path.into()))
            };
        }
        let from_cuda = std::env::var_os("CUDA_PATH")
            .map(|dir| PathBuf::from(dir).join("bin/ptxas"))
            .filter(|p| p.is_file());
        let on_path = || {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join("ptxas"))
                    .find(|p| p.is_file())
            })
        };
        from_cuda
            .or_else(on_path)
            .map(Ptxas::at)
            .ok_or(PtxasError::NotFound)
    }

    /// ptxas at `path`, at its default level.
    fn at(path: PathBuf) -> Ptxas {
        Ptxas { path, level: 3 }
    }

    /// At `-O0`, for builds that are checked and never run (the off-GPU
    /// tests): they ask whether ptxas takes the PTX, not what code it makes
    /// (every_mode_builds took 24% and 28% less CPU on two fixed seed
    /// slices, 2026-11-29, though on the largest PTX ptxas takes as long at
    /// both levels); `sl1-fuzz` assembles at the default, what the GPU runs.
    pub fn acceptance_only(self) -> Ptxas {
        Ptxas { level: 0, ..self }
    }

    /// Assembles `ptx` into a cubin; `dir` holds the files (named `stem`)
    /// while ptxas runs. The error is ptxas' own message.
    pub fn assemble(&self, ptx: &str, dir: &Path, stem: &str) -> Result<Vec<u8>, String> {
        let input = dir.join(format!("{stem}.ptx"));
        let output = dir.join(format!("{stem}.cubin"));
        std::fs::write(&input, ptx)
            .map_err(|e| format!("cannot write {}: {e}", input.display()))?;
        let result = Command::new(&self.path)
            .arg(format!("-arch={ARCH}"))
            .arg(format!("-O{}", self.level))
            .arg("-o")
            .arg(&output)
            .arg(&input)
            .output();
        let _ = std::fs::remove_file(&input);
        let out = result.map_err(|e| format!("cannot run {}: {e}", self.path.display()))?;
        if !out.status.success() {
            let _ = std::fs::remove_file(&output);
            let stderr = String::from_utf8_lossy(&out.stderr);
            return Err(format!("ptxas failed ({}): {}", out.status, stderr.trim()));
        }
        let cubin =
            std::fs::read(&output).map_err(|e| format!("cannot read {}: {e}", output.display()));
        let _ = std::fs::remove_file(&output);
        cubin
    }
}

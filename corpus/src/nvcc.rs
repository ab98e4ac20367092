//! The nvcc build of a corpus program, made on the GPU machine (where nvcc
//! is) from what its Makefile says: every source, the `-I`/`-D`/`-std=`
//! flags and the libraries, at `-O3` for the GPU's architecture. It is the
//! yardstick users have today: S-L1's time over it is the corpus's second
//! ratio.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::build::{first_error, source_path, BuildResult, Mode};
use crate::makefile::MakeInfo;

/// The nvcc command for `make` in the program's directory `dir`, writing
/// `executable`.
pub fn command(nvcc: &Path, dir: &Path, make: &MakeInfo, arch: &str, executable: &Path) -> Command {
    let mut cmd = Command::new(nvcc);
    cmd.current_dir(dir)
        .arg("-O3")
        .arg(format!("-arch={arch}"))
        .arg("-I")
        .arg(dir);
    if !make.flags.iter().any(|f| f.starts_with("-std=")) {
        cmd.arg("-std=c++17");
    }
    for flag in &make.flags {
        if let Some(include) = flag.strip_prefix("-I") {
            cmd.arg("-I").arg(dir.join(include));
        } else {
            cmd.arg(flag);
        }
    }
    cmd.args(make.sources.iter().map(|s| source_path(dir, s)))
        .arg("-o")
        .arg(executable)
        .args(&make.libs);
    cmd
}

/// Builds the program of `dir` (named `program`) with nvcc into
/// `out/nvcc/<program>/`.
pub fn build(
    nvcc: &Path,
    dir: &Path,
    program: &str,
    make: &MakeInfo,
    arch: &str,
    out: &Path,
) -> BuildResult {
    let target = out.join(Mode::Nvcc.name()).join(program);
    if let Err(e) = std::fs::create_dir_all(&target) {
        return BuildResult::not_tried(Mode::Nvcc, format!("{}: {e}", target.display()));
    }
    let executable = target.join(&make.program);
    let start = Instant::now();
    let output = command(nvcc, dir, make, arch, &executable).output();
    let seconds = start.elapsed().as_secs_f64();
    let output = match output {
        Ok(o) => o,
        Err(e) => {
            return BuildResult::not_tried(
                Mode::Nvcc,
                format!("cannot run {}: {e}", nvcc.display()),
            )
        }
    };
    let built = output.status.success() && executable.is_file();
    BuildResult {
        mode: Mode::Nvcc,
        built,
        executable: built.then_some(executable),
        error: (!built)
            .then(|| first_error(&String::from_utf8_lossy(&output.stderr), output.status)),
        transformed: Vec::new(),
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make() -> MakeInfo {
        MakeInfo {
            program: "main".into(),
            sources: vec!["main.cu".into(), "util.cu".into()],
            flags: vec!["-std=c++14".into(), "-Iinclude".into(), "-DUSE_X".into()],
            libs: vec!["-lcublas".into()],
            unsupported: Vec::new(),
            run_args: Vec::new(),
        }
    }

    #[test]
    fn the_command_takes_every_source_flag_and_library() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("main.cu"), "").unwrap();
        std::fs::write(dir.path().join("src/util.cu"), "").unwrap();
        let cmd = command(
            Path::new("nvcc"),
            dir.path(),
            &make(),
            "sm_90",
            Path::new("/out/main"),
        );
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let include = dir.path().join("include").display().to_string();
        let d = dir.path().display().to_string();
        assert_eq!(
            args,
            [
                "-O3",
                "-arch=sm_90",
                "-I",
                &d,
                "-std=c++14",
                "-I",
                &include,
                "-DUSE_X",
                "main.cu",
                "src/util.cu",
                "-o",
                "/out/main",
                "-lcublas"
            ]
        );
    }

    #[test]
    fn a_missing_compiler_is_a_build_failure_with_its_reason() {
        let dir = tempfile::tempdir().unwrap();
        let r = build(
            Path::new("/nonexistent/nvcc"),
            dir.path(),
            "x-cuda",
            &make(),
            "sm_90",
            dir.path(),
        );
        assert!(!r.built);
        assert_eq!(r.mode, Mode::Nvcc);
        assert!(r.error.unwrap().contains("cannot run /nonexistent/nvcc"));
    }
}

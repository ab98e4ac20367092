//! nvcc's command line in `sl1-driver build`'s words, for `sl1-nvcc`, the
//! front end a project that builds with nvcc today can name as its CUDA
//! compiler. nvcc spells options with one dash (`-arch=sm_90`, `-arch
//! sm_90`, `-Xcompiler -fopenmp`), which clap does not parse; this reads
//! them one by one. Options without an S-L1 meaning that only tune nvcc's
//! own front end (`--expt-extended-lambda`: clang has lambdas on) are
//! dropped and said so; options the driver cannot honour (`-rdc=true`,
//! `-G`) are errors that say what to do.

use thiserror::Error;

/// A command line `sl1-nvcc` cannot turn into a build.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NvccArgsError {
    #[error("`{0}` needs a value")]
    MissingValue(String),
    #[error("`{0}`: {1}")]
    Unsupported(String, &'static str),
    #[error("`{0}`: no sm_XX architecture in it")]
    NoArch(String),
    #[error("no input file")]
    NoInput,
}

/// What an nvcc command line asks for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Translated {
    /// `sl1-driver build`'s arguments.
    pub build: Vec<String>,
    /// nvcc options dropped because they mean nothing here.
    pub ignored: Vec<String>,
    /// `--version` alone: print the version, build nothing.
    pub version: bool,
    /// `--help`: print the flags table (`nvcc_flags`), build nothing.
    pub help: bool,
}

/// Options nvcc takes that need nothing here: clang's CUDA front end has
/// relaxed constexpr and extended lambdas on, and warnings are its own.
const IGNORED: &[&str] = &[
    "--expt-relaxed-constexpr",
    "-expt-relaxed-constexpr",
    "--expt-extended-lambda",
    "-expt-extended-lambda",
    "--extended-lambda",
    "-extended-lambda",
    "-Wno-deprecated-gpu-targets",
    "-Wno-deprecated-declarations",
    "--no-host-device-move-forward",
    "-w",
];

/// What an nvcc option that takes a value sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Valued {
    /// The same option of `sl1-driver build` (`-o`, `-I`, `-D`, `-L`, `-l`).
    Same(&'static str),
    /// The GPU architecture (`-arch`, `-code`, `-gencode`).
    Arch,
    /// Host compiler options, comma-separated.
    HostOptions,
    Std,
    Language,
    RelocatableDeviceCode,
    /// ptxas's options, comma-separated (`-Xptxas -v,-warn-spills`).
    PtxasOptions,
    /// A register limit, passed to ptxas.
    MaxRegisters,
    /// A macro to undefine, in every compile.
    Undefine,
    /// The default stream (`per-thread` or `legacy`).
    DefaultStream,
    /// The linker's options, comma-separated.
    LinkerOptions,
    /// `sl1-driver build`'s own options, comma-separated.
    Sl1Options,
}

/// Options that take a value, as nvcc spells them (with `=` or as the next
/// word).
fn with_value(flag: &str) -> Option<Valued> {
    Some(match flag {
        "-o" | "--output-file" => Valued::Same("-o"),
        "-I" | "--include-path" | "-isystem" | "--system-include" => Valued::Same("-I"),
        "-D" | "--define-macro" => Valued::Same("-D"),
        "-U" | "--undefine-macro" => Valued::Undefine,
        "--default-stream" | "-default-stream" => Valued::DefaultStream,
        "-L" | "--library-path" => Valued::Same("-L"),
        "-l" | "--library" => Valued::Same("-l"),
        "-arch" | "--gpu-architecture" | "-code" | "--gpu-code" | "-gencode"
        | "--generate-code" => Valued::Arch,
        "-Xcompiler" | "--compiler-options" => Valued::HostOptions,
        "-std" | "--std" => Valued::Std,
        "-x" | "--x" => Valued::Language,
        "-rdc" | "--relocatable-device-code" => Valued::RelocatableDeviceCode,
        "-Xptxas" | "--ptxas-options" => Valued::PtxasOptions,
        "-MF" | "--dependency-output" => Valued::Same("--dep-file"),
        "-MT" | "--dependency-target-name" => Valued::Same("--dep-target"),
        "-maxrregcount" | "--maxrregcount" => Valued::MaxRegisters,
        "-ccbin" | "--compiler-bindir" => Valued::Same("--host-compiler"),
        "-Xlinker" | "--linker-options" => Valued::LinkerOptions,
        "-Xsl1" | "--sl1-options" => Valued::Sl1Options,
        _ => return None,
    })
}

/// The sm_XX an `-arch`/`-gencode` value names (`sm_90`, `compute_90`,
/// `arch=compute_90,code=sm_90`, `sm_90a`).
fn arch_of(value: &str) -> Option<String> {
    let pick = value.split([',', '=']).rev().find_map(|part| {
        part.strip_prefix("sm_")
            .or_else(|| part.strip_prefix("compute_"))
    })?;
    let digits: String = pick.chars().take_while(char::is_ascii_digit).collect();
    // `sm_90a`: the architecture-specific features (wgmma, setmaxnreg).
    let specific = if pick[digits.len()..].starts_with('a') {
        "a"
    } else {
        ""
    };
    (!digits.is_empty()).then(|| format!("sm_{digits}{specific}"))
}

/// Translates nvcc's arguments (without the program name).
pub fn translate(args: &[String]) -> Result<Translated, NvccArgsError> {
    let mut out = Translated::default();
    let mut build = vec!["build".to_string()];
    let mut inputs = Vec::new();
    let mut emit: Option<&str> = None;
    let mut archs: Vec<String> = Vec::new();
    // Where `-x cu` came among the inputs.
    let mut cuda_from: Option<usize> = None;
    let mut words = args.iter().peekable();
    while let Some(word) = words.next() {
        let word = word.as_str();
        // `-flag=value`, `-flag value`, and the joined `-Idir`, `-DX`,
        // `-lfoo`, `-Ldir`, `-ofile`.
        let (flag, inline) = match word.split_once('=') {
            Some((f, v)) if f.starts_with('-') && with_value(f).is_some() => (f, Some(v)),
            _ => (word, None),
        };
        let joined = ["-I", "-D", "-U", "-L", "-l", "-o"].into_iter().find(|p| {
            word.len() > 2
                && word.starts_with(p)
                && with_value(word).is_none()
                && word != "-lineinfo"
        });
        let (kind, value) = if let Some(prefix) = joined {
            (with_value(prefix), Some(word[2..].to_string()))
        } else if let Some(kind) = with_value(flag) {
            let value = match inline {
                Some(v) => v.to_string(),
                None => words
                    .next()
                    .ok_or_else(|| NvccArgsError::MissingValue(word.to_string()))?
                    .clone(),
            };
            (Some(kind), Some(value))
        } else {
            (None, None)
        };
        if let (Some(kind), Some(value)) = (kind, value) {
            match kind {
                Valued::Same(option) => {
                    build.push(option.to_string());
                    build.push(value);
                }
                Valued::Arch if value == "native" => {
                    if !archs.iter().any(|a| a == "native") {
                        archs.push(value);
                    }
                }
                Valued::Arch if value.starts_with("all") => {
                    return Err(NvccArgsError::Unsupported(
                        format!("{flag}={value}"),
                        "name the architectures to build: -arch=sm_XX, or -gencode \
                         arch=compute_XX,code=sm_XX once per architecture (or -arch=native)",
                    ))
                }
                Valued::Arch => {
                    let arch = arch_of(&value)
                        .ok_or_else(|| NvccArgsError::NoArch(format!("{flag} {value}")))?;
                    // `-arch=compute_90 -code=sm_90` names one.
                    if !archs.contains(&arch) {
                        archs.push(arch);
                    }
                }
                Valued::HostOptions => {
                    for part in value.split(',').filter(|p| !p.is_empty()) {
                        build.push(format!("--host-arg={part}"));
                    }
                }
                Valued::Std => {
                    build.push(format!("--clang-arg=-std={value}"));
                    build.push(format!("--host-arg=-std={value}"));
                }
                // The C and C++ sources after it are CUDA.
                Valued::Language if value == "cu" => cuda_from = Some(inputs.len()),
                Valued::Language => {
                    return Err(NvccArgsError::Unsupported(
                        format!("-x {value}"),
                        "sl1-nvcc compiles CUDA (-x cu); name other sources by their extension",
                    ))
                }
                Valued::RelocatableDeviceCode if value == "false" => {}
                Valued::RelocatableDeviceCode => {
                    return Err(NvccArgsError::Unsupported(
                        format!("{flag}={value}"),
                        "relocatable device code is not supported: S-L1 compiles each CUDA \
                         source with its own device code (drop -rdc, keeping each kernel in \
                         the file that launches it)",
                    ))
                }
                Valued::PtxasOptions => {
                    for part in value.split(',').filter(|p| !p.is_empty()) {
                        build.push(format!("--ptxas-arg={part}"));
                    }
                }
                Valued::MaxRegisters => build.push(format!("--ptxas-arg=--maxrregcount={value}")),
                Valued::Undefine => {
                    build.push(format!("--clang-arg=-U{value}"));
                    build.push(format!("--host-arg=-U{value}"));
                }
                // What nvcc does for per-thread: the runtime header maps
                // the stream-ordered calls to their `_ptsz` forms, in host
                // code (which the S-L1 runtime wraps too).
                Valued::DefaultStream if value == "per-thread" => {
                    build.push("-D".into());
                    build.push("CUDA_API_PER_THREAD_DEFAULT_STREAM".into());
                }
                Valued::DefaultStream if value == "legacy" || value == "null" => {}
                Valued::DefaultStream => {
                    return Err(NvccArgsError::Unsupported(
                        format!("--default-stream {value}"),
                        "the default stream is per-thread or legacy",
                    ))
                }
                Valued::LinkerOptions => {
                    for part in value.split(',').filter(|p| !p.is_empty()) {
                        build.push(format!("--link-arg=-Wl,{part}"));
                    }
                }
                // S-L1's options, checked by sl1-driver build as its own.
                Valued::Sl1Options => {
                    for part in value.split(',').filter(|p| !p.is_empty()) {
                        if !part.starts_with('-') {
                            return Err(NvccArgsError::Unsupported(
                                format!("-Xsl1 {value}"),
                                "-Xsl1 takes sl1-driver build options, each with its value \
                                 after `=`: -Xsl1 --line-size=32,--dynamic-shared=1024",
                            ));
                        }
                        build.push(part.to_string());
                    }
                }
            }
            continue;
        }
        match word {
            "--help" | "-h" | "-help" => {
                out.help = true;
                return Ok(out);
            }
            "-dc" | "--device-c" => {
                return Err(NvccArgsError::Unsupported(
                    word.into(),
                    "relocatable device code is not supported: S-L1 compiles each CUDA \
                     source with its own device code (use -c, keeping each kernel in the \
                     file that launches it)",
                ))
            }
            "-MD" | "--generate-dependencies-with-compile" => build.push("--deps=all".into()),
            "-MMD" | "--generate-nonsystem-dependencies-with-compile" => {
                build.push("--deps=user".into())
            }
            "-MP" | "--generate-dependency-targets" => build.push("--dep-phony".into()),
            "-M" | "-MM" | "--generate-dependencies" | "--generate-nonsystem-dependencies" => {
                return Err(NvccArgsError::Unsupported(
                    word.into(),
                    "dependencies without a compile are not supported: use -MD (or -MMD) \
                     -MF FILE, which writes them with the compile",
                ))
            }
            "-keep" | "--keep" => out.ignored.push(word.to_string()),
            "-shared" | "--shared" => {
                return Err(NvccArgsError::Unsupported(
                    word.into(),
                    "sl1-nvcc builds executables and objects: compile with -c and link the \
                     shared library with the S-L1 runtime (README: raw clang)",
                ))
            }
            "--version" | "-V" => out.version = true,
            "-c" | "--compile" => emit = Some("obj"),
            "-ptx" | "--ptx" => emit = Some("ptx"),
            "-cubin" | "--cubin" => emit = Some("cubin"),
            "-lineinfo" | "--generate-line-info" => {
                build.push("--clang-arg=-gline-tables-only".into())
            }
            "-G" | "--device-debug" => {
                return Err(NvccArgsError::Unsupported(
                    word.into(),
                    "device debugging turns the optimizer off, and S-L1 with it; build \
                     with -lineinfo, or without S-L1",
                ))
            }
            "-g" | "--debug" => build.push("--clang-arg=-g".into()),
            "-use_fast_math" | "--use_fast_math" => build.push("--clang-arg=-ffast-math".into()),
            "-v" | "--verbose" => build.push("-v".into()),
            "--resource-usage" | "-res-usage" => build.push("--ptxas-arg=-v".into()),
            // nvcc's -O is the host code's level: device code is optimised
            // unless -G (which is refused), and S-L1 needs it to be.
            w if w.len() == 3 && w.starts_with("-O") => build.push(format!("--host-arg={w}")),
            w if IGNORED.contains(&w) => out.ignored.push(w.to_string()),
            w if w.starts_with('-') => {
                return Err(NvccArgsError::Unsupported(
                    w.to_string(),
                    "an nvcc option sl1-nvcc does not know; sl1-nvcc --help lists the \
                     flags it takes (docs/nvcc.md)",
                ))
            }
            input => inputs.push(input.to_string()),
        }
    }
    if out.version && inputs.is_empty() {
        return Ok(out);
    }
    if inputs.is_empty() {
        return Err(NvccArgsError::NoInput);
    }
    if let Some(from) = cuda_from {
        let host = |i: &String| {
            crate::build_many::part_of(std::path::Path::new(i), false)
                .is_ok_and(|p| p == crate::build_many::Part::Host)
        };
        if inputs[from..].iter().any(host) {
            if inputs[..from].iter().any(host) {
                return Err(NvccArgsError::Unsupported(
                    "-x cu".into(),
                    "sl1-nvcc compiles every C/C++ source of a command as CUDA or none: put \
                     -x cu before the first, or build the host sources in another command",
                ));
            }
            build.push("-x".into());
            build.push("cu".into());
        }
    }
    // Each architecture's cubin and PTX go into one fat binary.
    build.extend(archs.iter().map(|arch| format!("--arch={arch}")));
    if let Some(emit) = emit {
        build.push(format!("--emit={emit}"));
    }
    build.splice(1..1, inputs);
    out.build = build;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(line: &str) -> Vec<String> {
        let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        translate(&args).unwrap().build
    }

    #[test]
    fn architectures_in_every_spelling() {
        for line in [
            "-arch=sm_90 a.cu",
            "-arch sm_90 a.cu",
            "--gpu-architecture=sm_90 a.cu",
            "--gpu-architecture sm_90 a.cu",
            "-gencode arch=compute_90,code=sm_90 a.cu",
            "-gencode=arch=compute_90,code=sm_90 a.cu",
            "-arch=compute_90 -code=sm_90 a.cu",
            "-code=sm_90,compute_90 a.cu",
            "-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 a.cu",
        ] {
            assert_eq!(build(line), ["build", "a.cu", "--arch=sm_90"], "{line}");
        }
    }

    #[test]
    fn architecture_specific_features_are_kept() {
        assert_eq!(
            build("-arch=sm_90a a.cu"),
            ["build", "a.cu", "--arch=sm_90a"]
        );
        assert_eq!(
            build("-gencode arch=compute_90a,code=sm_90a a.cu"),
            ["build", "a.cu", "--arch=sm_90a"]
        );
    }

    #[test]
    fn several_architectures_go_into_one_build() {
        assert_eq!(
            build("-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 a.cu"),
            ["build", "a.cu", "--arch=sm_80", "--arch=sm_90"]
        );
        assert_eq!(
            build("-arch=native a.cu"),
            ["build", "a.cu", "--arch=native"]
        );
    }

    #[test]
    fn the_optimisation_level_is_the_host_codes_as_in_nvcc() {
        // Device code stays optimised (S-L1 needs it); -O0 reaches the host.
        assert_eq!(build("-O0 a.cu"), ["build", "a.cu", "--host-arg=-O0"]);
    }

    #[test]
    fn outputs_objects_and_kinds() {
        assert_eq!(
            build("-c util.cu -o util.o -O3"),
            [
                "build",
                "util.cu",
                "-o",
                "util.o",
                "--host-arg=-O3",
                "--emit=obj"
            ]
        );
        assert_eq!(
            build("--ptx k.cu -ok.ptx"),
            ["build", "k.cu", "-o", "k.ptx", "--emit=ptx"]
        );
        assert_eq!(build("-cubin k.cu"), ["build", "k.cu", "--emit=cubin"]);
    }

    #[test]
    fn paths_macros_libraries_and_host_options() {
        assert_eq!(
            build(
                "main.cu ref.cpp -Iinc -I other -DN=4 -D M -Llib -lcurand -l m \
                 -Xcompiler -fopenmp,-Wall -std=c++17 -lineinfo -x cu"
            ),
            [
                "build",
                "main.cu",
                "ref.cpp",
                "-I",
                "inc",
                "-I",
                "other",
                "-D",
                "N=4",
                "-D",
                "M",
                "-L",
                "lib",
                "-l",
                "curand",
                "-l",
                "m",
                "--host-arg=-fopenmp",
                "--host-arg=-Wall",
                "--clang-arg=-std=c++17",
                "--host-arg=-std=c++17",
                "--clang-arg=-gline-tables-only",
            ]
        );
    }

    #[test]
    fn front_end_options_are_dropped_and_said_so() {
        let args: Vec<String> = "--expt-extended-lambda a.cu"
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let t = translate(&args).unwrap();
        assert_eq!(t.build, ["build", "a.cu"]);
        assert_eq!(t.ignored, ["--expt-extended-lambda"]);
    }

    #[test]
    fn linker_options_reach_the_link() {
        assert_eq!(
            build("-Xlinker -rpath,/opt/lib --linker-options=-s a.cu"),
            [
                "build",
                "a.cu",
                "--link-arg=-Wl,-rpath",
                "--link-arg=-Wl,/opt/lib",
                "--link-arg=-Wl,-s"
            ]
        );
    }

    #[test]
    fn s_l1_options_reach_the_build() {
        assert_eq!(
            build("-Xsl1 --line-size=32,--dynamic-shared=1024 --sl1-options=--stats a.cu"),
            [
                "build",
                "a.cu",
                "--line-size=32",
                "--dynamic-shared=1024",
                "--stats"
            ]
        );
        let e = translate(&["-Xsl1".into(), "32".into(), "a.cu".into()]).unwrap_err();
        assert!(e.to_string().contains("--line-size=32"), "{e}");
    }

    #[test]
    fn what_cannot_be_honoured_is_an_error_that_says_why() {
        let err = |line: &str| {
            let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
            translate(&args).unwrap_err()
        };
        assert!(
            matches!(err("-rdc=true a.cu"), NvccArgsError::Unsupported(f, _) if f == "-rdc=true")
        );
        assert!(matches!(err("-G a.cu"), NvccArgsError::Unsupported(..)));
        assert!(matches!(
            err("--frobnicate a.cu"),
            NvccArgsError::Unsupported(..)
        ));
        assert_eq!(err("-arch"), NvccArgsError::MissingValue("-arch".into()));
        assert_eq!(err("-O3"), NvccArgsError::NoInput);
        assert!(matches!(
            err("-arch=all a.cu"),
            NvccArgsError::Unsupported(..)
        ));
        assert!(matches!(err("-arch=foo a.cu"), NvccArgsError::NoArch(_)));
    }

    #[test]
    fn every_row_of_the_flags_table_is_taken_as_it_says() {
        use crate::nvcc_flags::{Handling, FLAGS};
        for f in FLAGS {
            let mut args: Vec<String> = f.example.iter().map(|w| w.to_string()).collect();
            args.push("a.cu".into());
            let got = translate(&args);
            match f.handling {
                Handling::Supported => {
                    let t = got.unwrap_or_else(|e| panic!("{}: {e}", f.spelling));
                    assert!(t.ignored.is_empty(), "{}: {:?}", f.spelling, t.ignored);
                }
                Handling::Ignored => {
                    let t = got.unwrap_or_else(|e| panic!("{}: {e}", f.spelling));
                    assert!(!t.ignored.is_empty(), "{}: {t:?}", f.spelling);
                }
                Handling::Refused => assert!(got.is_err(), "{}: {got:?}", f.spelling),
            }
        }
    }

    #[test]
    fn x_cu_makes_the_sources_after_it_cuda() {
        assert_eq!(
            build("-x cu main.cpp -c"),
            ["build", "main.cpp", "-x", "cu", "--emit=obj"]
        );
        // Before any C++ source it changes nothing here.
        assert_eq!(build("a.cu -x cu"), ["build", "a.cu"]);
        let args: Vec<String> = "ref.cpp -x cu main.cpp"
            .split_whitespace()
            .map(str::to_string)
            .collect();
        assert!(matches!(
            translate(&args).unwrap_err(),
            NvccArgsError::Unsupported(..)
        ));
    }

    #[test]
    fn dependency_files_as_cmake_asks_for_them() {
        assert_eq!(
            build("-MD -MT a.cu.o -MF a.cu.o.d -x cu -c a.cu -o a.cu.o"),
            [
                "build",
                "a.cu",
                "--deps=all",
                "--dep-target",
                "a.cu.o",
                "--dep-file",
                "a.cu.o.d",
                "-o",
                "a.cu.o",
                "--emit=obj"
            ]
        );
        assert_eq!(
            build("-MMD -MP a.cu"),
            ["build", "a.cu", "--deps=user", "--dep-phony"]
        );
        let args = vec!["-M".to_string(), "a.cu".to_string()];
        assert!(matches!(
            translate(&args).unwrap_err(),
            NvccArgsError::Unsupported(..)
        ));
    }

    #[test]
    fn undefined_macros_and_the_default_stream() {
        assert_eq!(
            build("-UNDEBUG -U FOO --default-stream per-thread a.cu"),
            [
                "build",
                "a.cu",
                "--clang-arg=-UNDEBUG",
                "--host-arg=-UNDEBUG",
                "--clang-arg=-UFOO",
                "--host-arg=-UFOO",
                "-D",
                "CUDA_API_PER_THREAD_DEFAULT_STREAM"
            ]
        );
        assert_eq!(build("--default-stream=legacy a.cu"), ["build", "a.cu"]);
        let t = translate(&["-keep".to_string(), "a.cu".to_string()]).unwrap();
        assert_eq!(t.ignored, ["-keep"]);
        let args = vec!["-shared".to_string(), "a.cu".to_string()];
        assert!(matches!(
            translate(&args).unwrap_err(),
            NvccArgsError::Unsupported(..)
        ));
    }

    #[test]
    fn ptxas_options_reach_ptxas() {
        assert_eq!(
            build("-Xptxas -v,-warn-spills -maxrregcount=64 --resource-usage a.cu"),
            [
                "build",
                "a.cu",
                "--ptxas-arg=-v",
                "--ptxas-arg=-warn-spills",
                "--ptxas-arg=--maxrregcount=64",
                "--ptxas-arg=-v"
            ]
        );
    }

    #[test]
    fn help_builds_nothing() {
        for word in ["--help", "-h"] {
            let t = translate(&[word.to_string()]).unwrap();
            assert!(t.help && t.build.is_empty(), "{word}");
        }
    }

    #[test]
    fn version_alone_builds_nothing() {
        let t = translate(&["--version".to_string()]).unwrap();
        assert!(t.version);
        assert!(t.build.is_empty());
    }
}

//! The command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use sl1_core::option_list::{PluginSettings, PASS_OPTIONS};

pub use crate::pass_flags::{build_flag, PassFlags};

#[derive(Parser, Debug)]
#[command(
    name = "sl1-driver",
    version,
    propagate_version = true,
    about = "Build CUDA programs and NVVM IR with the S-L1 software L1 cache"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Compile a .cu file (executable, object, PTX, cubin or IR) or a .ll/.bc
    /// module (PTX, cubin or IR) with S-L1, or link several sources and
    /// objects into an executable.
    Build(Box<BuildArgs>),
    /// Show which tools were found and how to install the missing ones.
    Doctor(ToolArgs),
    /// Measure this machine's GPU memory hierarchy (latencies, cache line and
    /// capacity, bank conflicts, throughput) and write a GPU profile whose
    /// line sizes and shared-memory budget `build --gpu-profile` uses.
    Probe(sl1_probe::cli::ProbeArgs),
    /// Print a shell completion script on standard output.
    ///
    /// For bash: `sl1-driver completions bash >
    /// ~/.local/share/bash-completion/completions/sl1-driver`; zsh reads
    /// `_sl1-driver` from a folder of its `fpath`, fish
    /// `~/.config/fish/completions/sl1-driver.fish`.
    Completions(CompletionsArgs),
}

#[derive(Args, Debug, Clone)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// What `build` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Emit {
    /// A host executable with the device code embedded (.cu input only).
    Exe,
    /// A host object file with the device code embedded (.cu input only;
    /// as `-c`): link it with others (`sl1-driver build a.o b.o`).
    Obj,
    /// PTX assembly.
    Ptx,
    /// A cubin (ptxas output) for the chosen architecture.
    Cubin,
    /// Textual LLVM IR of the device code.
    Ll,
    /// LLVM bitcode of the device code.
    Bc,
}

/// Where a kernel's S-L1 line buffer lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LineBuffer {
    /// In dynamic shared memory, sized per block at launch: the default
    /// for executables and objects, whose launches the host compile gives
    /// the bytes
    /// (small blocks keep their blocks per SM). Elsewhere the launches must
    /// add the bytes the report gives (`launch_bytes`).
    Launch,
    /// A static array sized for --max-threads threads: the default for
    /// PTX, cubins and IR, whose launches the driver does not see.
    Static,
}

/// How an executable gets the CUDA runtime (nvcc's `--cudart`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Cudart {
    /// Linked in: the executable needs only a driver.
    #[default]
    Static,
    /// `libcudart.so`, found at run time (`LD_LIBRARY_PATH`): executables
    /// stay small, for carrying many of them to a GPU machine.
    Shared,
}

impl Emit {
    pub fn extension(self) -> &'static str {
        match self {
            Emit::Exe => "",
            Emit::Obj => "o",
            Emit::Ptx => "ptx",
            Emit::Cubin => "cubin",
            Emit::Ll => "ll",
            Emit::Bc => "bc",
        }
    }
}

/// Where the tools are; each falls back to the environment and then to search.
#[derive(Args, Debug, Clone, Default)]
pub struct ToolArgs {
    /// CUDA installation to use (default: $CUDA_PATH, then the one ci/setup
    /// assembles, then /usr/local/cuda).
    #[arg(long, value_name = "DIR")]
    pub cuda_path: Option<PathBuf>,
    /// clang++ 22 to use (default: $SL1_CLANG, then clang++-22 on PATH).
    #[arg(long, value_name = "PATH")]
    pub clang: Option<PathBuf>,
    /// The S-L1 clang plugin (default: $SL1_PLUGIN, then libsl1_pass.so beside
    /// this program or in ../lib, then the one this program's build made).
    #[arg(long, value_name = "PATH")]
    pub plugin: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct BuildArgs {
    /// Input: CUDA source (.cu) or device IR (.ll, .bc); with more inputs,
    /// any of those MORE can be.
    pub input: PathBuf,
    /// More inputs, linked with the first into one executable: CUDA
    /// sources (.cu, each compiled with S-L1), C and C++ sources (.c, .cpp,
    /// .cc, .cxx: host code) and object files (.o).
    #[arg(value_name = "MORE")]
    pub more_inputs: Vec<PathBuf>,
    /// Compile only, to an object file (as `--emit obj`; nvcc's `-c`).
    #[arg(short = 'c')]
    pub compile_only: bool,
    /// `cu`: compile C and C++ sources (.c, .cpp, .cc, .cxx) as CUDA, with
    /// S-L1 (nvcc's `-x cu`).
    #[arg(short = 'x', value_name = "LANGUAGE", value_parser = ["cu"])]
    pub language: Option<String>,
    /// Library to link (`-lcublas`), after the CUDA runtime's directory.
    #[arg(short = 'l', value_name = "LIB")]
    pub libs: Vec<String>,
    /// Directory to search for -l libraries.
    #[arg(short = 'L', value_name = "DIR")]
    pub lib_dirs: Vec<PathBuf>,
    /// Output file (default: the input's name with the emitted kind's extension).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// What to produce (default: exe for .cu, ptx for IR).
    #[arg(long, value_enum)]
    pub emit: Option<Emit>,
    /// GPU architectures, sm_XX (repeated or comma-separated: an executable
    /// or object carries a cubin and PTX for each); `native`: the GPUs of
    /// this machine.
    #[arg(
        long,
        default_value = "sm_90",
        value_name = "sm_XX",
        value_delimiter = ','
    )]
    pub arch: Vec<String>,
    /// Optimisation level 0-3.
    #[arg(short = 'O', default_value = "3", value_parser = clap::value_parser!(u8).range(0..=3))]
    pub opt_level: u8,
    /// Include directory, passed to clang.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Macro definition NAME or NAME=VALUE, passed to clang.
    #[arg(short = 'D', value_name = "MACRO")]
    pub define: Vec<String>,
    /// How an executable links the CUDA runtime.
    #[arg(long, value_enum, default_value_t = Cudart::Static)]
    pub cudart: Cudart,
    /// Write the S-L1 report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Print the S-L1 report as text on standard error.
    #[arg(long)]
    pub print_report: bool,
    /// Where line buffers live [default: launch for executables, static
    /// otherwise].
    #[arg(long, value_enum, value_name = "WHERE")]
    pub line_buffer: Option<LineBuffer>,
    /// The pass's options, one flag each (made from its option list).
    #[command(flatten)]
    pub pass: PassFlags,
    /// Leave LLVM's own tuning for the device compilation: by default the
    /// driver passes the options in `DEVICE_LLVM_OPTIONS` (a larger budget for the
    /// trip counts the runtime unroller computes, no search for horizontal
    /// reductions in SLP) and the plugin's device
    /// rewrites (see --no-device-rewrites); this leaves out both.
    #[arg(long)]
    pub no_device_tuning: bool,
    /// Leave out the plugin's device rewrites, which the driver runs by
    /// default, also with --no-sl1: small switches that only choose values
    /// become selects, and divisions that nested loops' addresses build on
    /// are frozen so that loop strength reduction can bump those addresses
    /// (measured in docs/benchmarks.md).
    #[arg(long)]
    pub no_device_rewrites: bool,
    /// Let clang lower switches to jump tables. Off by default: on the GPU a
    /// jump table is an indirect branch (`brx.idx`) that a warp whose threads
    /// take different cases serializes on, where a compare tree predicates.
    #[arg(long)]
    pub jump_tables: bool,
    /// Leave out the nvcc prelude, which every CUDA source gets by default
    /// (`driver/include/sl1_nvcc_prelude.h`): nvcc's version macros
    /// (`__CUDACC_VER_MAJOR__`), min and max callable from host code, CUDA
    /// 12.8's `__nv_atomic_*` functions, and `register` accepted under
    /// C++17, as nvcc has them.
    #[arg(long)]
    pub no_nvcc_prelude: bool,
    /// One more argument for ptxas (repeatable), e.g. `--ptxas-arg=-v` to
    /// see each kernel's registers and shared memory after S-L1, or
    /// `--ptxas-arg=--maxrregcount=64` (nvcc's `-Xptxas`, `-maxrregcount`).
    #[arg(long = "ptxas-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub ptxas_args: Vec<String>,
    /// One more argument for the host compiles and the link (repeatable),
    /// e.g. `--host-arg=-fopenmp` (nvcc's `-Xcompiler`).
    #[arg(long = "host-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub host_args: Vec<String>,
    /// Also write a Make dependency file (nvcc's `-MD`; `-MMD` leaves out
    /// system headers): the headers the source includes, for the build
    /// system to rebuild it when one changes. Named by `--dep-file`, else
    /// the output's name with `.d`.
    #[arg(long, value_name = "KIND", value_parser = ["all", "user"])]
    pub deps: Option<String>,
    /// The dependency file (nvcc's `-MF`).
    #[arg(long, value_name = "FILE")]
    pub dep_file: Option<PathBuf>,
    /// The target the dependency file names (nvcc's `-MT`; default: the
    /// output).
    #[arg(long, value_name = "NAME")]
    pub dep_target: Option<String>,
    /// Also a phony target for each header (nvcc's `-MP`).
    #[arg(long)]
    pub dep_phony: bool,
    /// The compiler of the host sources (.cpp, .cc, .c) and of the link, e.g.
    /// `g++` for a program built with GCC's OpenMP (nvcc's `-ccbin`; a
    /// directory names its `g++`); default: the clang++ of the build. CUDA
    /// sources are compiled by clang either way.
    #[arg(long, value_name = "PROGRAM")]
    pub host_compiler: Option<PathBuf>,
    /// One more argument for the link alone (repeatable), e.g.
    /// `--link-arg=-Wl,-rpath,/opt/lib` (nvcc's `-Xlinker`, as `-Wl,`).
    #[arg(long = "link-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub link_args: Vec<String>,
    /// One more argument for clang's device compilation (repeatable), e.g.
    /// `--clang-arg=-ffast-math`.
    #[arg(long = "clang-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub clang_args: Vec<String>,
    /// Print every command before running it.
    #[arg(short, long)]
    pub verbose: bool,
    #[command(flatten)]
    pub tools: ToolArgs,
}

impl BuildArgs {
    /// The arguments that make a host compile writing `output` also write
    /// the dependency file (`--deps`), in clang's and GCC's spelling.
    pub fn dep_args(&self, output: &std::path::Path) -> Vec<String> {
        let Some(kind) = &self.deps else {
            return Vec::new();
        };
        let file = self
            .dep_file
            .clone()
            .unwrap_or_else(|| output.with_extension("d"));
        let target = self
            .dep_target
            .clone()
            .unwrap_or_else(|| output.display().to_string());
        let mut args = vec![
            if kind == "user" { "-MMD" } else { "-MD" }.to_string(),
            "-MF".to_string(),
            file.display().to_string(),
            "-MT".to_string(),
            target,
        ];
        if self.dep_phony {
            args.push("-MP".into());
        }
        args
    }

    /// Whether C and C++ sources are CUDA here (`-x cu`).
    pub fn all_cuda(&self) -> bool {
        self.language.as_deref() == Some("cu")
    }

    /// The compiler of host sources and of the link (`--host-compiler`).
    pub fn host_compiler(&self, clang: &std::path::Path) -> PathBuf {
        match &self.host_compiler {
            Some(dir) if dir.is_dir() => dir.join("g++"),
            Some(program) => program.clone(),
            None => clang.to_path_buf(),
        }
    }

    /// The first architecture: the one of PTX, cubin and IR outputs, and of
    /// the host compile.
    pub fn primary_arch(&self) -> &str {
        self.arch.first().map_or("sm_90", String::as_str)
    }

    /// Whether the plugin's device rewrites run (`-sl1-device-tuning`).
    pub fn device_rewrites(&self) -> bool {
        !self.no_device_tuning && !self.no_device_rewrites
    }

    /// Whether S-L1 transforms kernels (not `--no-sl1`).
    pub fn transform(&self) -> bool {
        !self.pass.given("disable")
    }

    /// Whether line buffers are sized at launch for this output.
    pub fn launch_sized(&self, emit: Emit) -> bool {
        self.transform()
            && self
                .line_buffer
                .map_or(matches!(emit, Emit::Exe | Emit::Obj), |b| {
                    b == LineBuffer::Launch
                })
    }

    /// The plugin's settings for output `emit`: the pass's options given,
    /// with what the driver sets itself (the device rewrites, where line
    /// buffers live) and what a GPU profile fills in.
    pub fn settings(&self, emit: Emit) -> Result<PluginSettings, sl1_core::Error> {
        // Device tuning is on unless turned off: given either way.
        let mut set = vec![(
            "device-tuning",
            if self.device_rewrites() {
                "true"
            } else {
                "false"
            },
        )];
        if self.jump_tables {
            set.push(("jump-tables", "true"));
        }
        if self.launch_sized(emit) {
            set.push(("launch-sized", "true"));
        }
        self.pass.settings(&set)
    }
}

/// The reference table of the pass's options (`docs/options.md`), made
/// from the one list: each option as the plugin and `sl1-driver build`
/// spell it, and what it does.
pub fn options_table() -> String {
    let mut out =
        String::from("| plugin (`-mllvm`) | `sl1-driver build` | what it does |\n|---|---|---|\n");
    for option in PASS_OPTIONS.iter().filter(|o| !o.hidden) {
        let value = option.kind.placeholder();
        let plugin = match value {
            Some(v) => format!("`-sl1-{}={v}`", option.name),
            None => format!("`-sl1-{}`", option.name),
        };
        let driver = match option.build_spelling(value) {
            Some(flag) => format!("`{flag}`"),
            None => "(set by the driver)".to_string(),
        };
        // Markdown would read `__x__` as bold.
        let help = option
            .help_in(|name| format!("`-sl1-{name}`"))
            .replace("__", "\\_\\_");
        out.push_str(&format!("| {plugin} | {driver} | {help} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::Emit;

    fn build_args(args: &[&str]) -> super::BuildArgs {
        let argv = ["sl1-driver", "build", "app.cu"].iter().chain(args.iter());
        match super::Cli::try_parse_from(argv).unwrap().command {
            super::Command::Build(b) => *b,
            _ => unreachable!("a build command"),
        }
    }

    fn options(args: &[&str]) -> sl1_core::Options {
        build_args(args).settings(Emit::Ptx).unwrap().options
    }

    fn line_sizes(args: &[&str]) -> (u32, u32) {
        let o = options(args);
        (o.line_size, o.max_line_size)
    }

    /// Each option the driver has a flag for reaches the plugin: given on
    /// `build`'s command line, it is among the plugin's arguments.
    #[test]
    fn every_build_flag_reaches_the_plugin() {
        let dir = tempfile::tempdir().unwrap();
        let profile = dir.path().join("profile.json");
        std::fs::write(
            &profile,
            r#"{"sl1": {"line_size": 16, "max_line_size": 32, "shared_budget_bytes": 32768, "why": []}}"#,
        )
        .unwrap();
        let profile = profile.display().to_string();
        for option in sl1_core::option_list::PASS_OPTIONS {
            let value = match option.kind {
                sl1_core::option_list::Kind::Flag => None,
                sl1_core::option_list::Kind::File => Some(profile.as_str()),
                _ => Some("32"),
            };
            let Some(flag) = option.build_spelling(value) else {
                continue;
            };
            let parsed = super::Cli::try_parse_from(
                ["sl1-driver", "build", "app.cu"]
                    .into_iter()
                    .chain(flag.split(' ')),
            );
            let args = match parsed {
                Ok(cli) => match cli.command {
                    super::Command::Build(b) => b,
                    _ => unreachable!("a build command"),
                },
                Err(e) => panic!("-sl1-{} has no build flag `{flag}`: {e}", option.name),
            };
            if matches!(
                option.build,
                sl1_core::option_list::BuildFlag::SetByDriver(_)
            ) {
                continue;
            }
            let arguments = args.settings(Emit::Exe).unwrap().arguments();
            let named = format!("-sl1-{}", option.name);
            assert!(
                arguments
                    .iter()
                    .any(|a| a == &named || a.starts_with(&format!("{named}="))),
                "`{flag}` does not reach the plugin: {arguments:?}"
            );
        }
    }

    #[test]
    fn help_names_other_options_in_the_driver_s_spelling() {
        let help = super::options_table();
        assert!(
            help.contains("or `-sl1-line-size` when that is given"),
            "{help}"
        );
        let mut command = <super::Cli as clap::CommandFactory>::command();
        let build = command.find_subcommand_mut("build").unwrap();
        let max = build
            .get_arguments()
            .find(|a| a.get_long() == Some("max-line-size"))
            .expect("--max-line-size");
        let text = max.get_help().unwrap().to_string();
        assert!(text.contains("or --line-size when that is given"), "{text}");
    }

    #[test]
    fn loops_that_only_read_or_stream_take_longer_lines_unless_line_sizes_are_given() {
        let read_only_max = |args: &[&str]| options(args).read_only_max_line_size;
        assert_eq!(read_only_max(&[]), 64);
        assert_eq!(read_only_max(&["--max-line-size", "32"]), 32);
        assert_eq!(read_only_max(&["--line-size", "16"]), 16);
        let stream_max = |args: &[&str]| options(args).stream_max_line_size;
        assert_eq!(stream_max(&[]), 128);
        assert_eq!(stream_max(&["--max-line-size", "32"]), 32);
        assert_eq!(stream_max(&["--line-size", "16"]), 16);
    }

    #[test]
    fn a_line_size_alone_is_fixed_and_the_default_ranges_16_to_32() {
        assert_eq!(line_sizes(&[]), (16, 32));
        assert_eq!(line_sizes(&["--line-size", "8"]), (8, 8));
        assert_eq!(line_sizes(&["--line-size", "64"]), (64, 64));
        assert_eq!(line_sizes(&["--max-line-size", "64"]), (16, 64));
        assert_eq!(
            line_sizes(&["--line-size", "8", "--max-line-size", "32"]),
            (8, 32)
        );
    }

    #[test]
    fn the_driver_sets_the_device_rewrites_and_launch_sized_buffers() {
        let settings = |args: &[&str], emit| build_args(args).settings(emit).unwrap().options;
        assert!(settings(&[], Emit::Ptx).device_tuning);
        assert!(!settings(&["--no-device-rewrites"], Emit::Ptx).device_tuning);
        assert!(settings(&[], Emit::Exe).launch_sized);
        assert!(!settings(&[], Emit::Ptx).launch_sized);
        assert!(!settings(&["--no-sl1"], Emit::Exe).launch_sized);
        assert!(settings(&["--line-buffer", "launch"], Emit::Ptx).launch_sized);
    }
}

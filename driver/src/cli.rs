//! The command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

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
    /// GPU architecture, sm_XX.
    #[arg(long, default_value = "sm_90", value_name = "sm_XX")]
    pub arch: String,
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
    /// Same pipeline without the S-L1 transform (for comparison).
    #[arg(long)]
    pub no_sl1: bool,
    /// Write the S-L1 report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Print the S-L1 report as text on standard error.
    #[arg(long)]
    pub print_report: bool,
    /// Accesses simulated per thread before deciding what to cache.
    #[arg(long, default_value_t = 300)]
    pub threshold: u32,
    /// Cache line size in bytes. Given alone, it fixes the size; by default
    /// each launch picks 16 or 32 B (see --max-line-size).
    #[arg(long)]
    pub line_size: Option<u32>,
    /// Largest line size a launch may pick: the runtime takes the largest
    /// size up to this that gives every cached structure a line for every
    /// thread of the block [default: 32, or --line-size when that is given].
    #[arg(long)]
    pub max_line_size: Option<u32>,
    /// Shared memory in bytes a block's line buffer and the kernel's own
    /// static shared memory may take together [default: 49152, the most a
    /// block gets without opting in, or the GPU profile's].
    #[arg(long, value_name = "BYTES")]
    pub shared_budget: Option<u64>,
    /// The most dynamic shared memory (`extern __shared__`) a kernel launch
    /// gives, in bytes. Kernels that use dynamic shared memory get lines
    /// only with it, from the budget less this; a launch that gives more
    /// may fail for want of shared memory. Without it they stay untouched.
    #[arg(long, value_name = "BYTES")]
    pub dynamic_shared: Option<u64>,
    /// Where line buffers live [default: launch for executables, static
    /// otherwise].
    #[arg(long, value_enum, value_name = "WHERE")]
    pub line_buffer: Option<LineBuffer>,
    /// Take the line sizes and the shared-memory budget from a GPU profile,
    /// the JSON file `sl1-driver probe` writes (options given here win).
    #[arg(long, value_name = "FILE")]
    pub gpu_profile: Option<PathBuf>,
    /// Block size the S-L1 line buffer is provisioned for when a kernel has no
    /// __launch_bounds__.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub max_threads: u32,
    /// Insert S-L1 but cache nothing at run time (measures its overhead).
    #[arg(long)]
    pub force_uncached: bool,
    /// Cache read-only restrict arguments too (the paper's choice; by default
    /// they are left to the hardware L1).
    #[arg(long)]
    pub cache_read_only: bool,
    /// Count S-L1 hits and misses per data structure at run time, into the
    /// global `sl1_stats_<kernel>` (six u64 per structure; see docs).
    #[arg(long)]
    pub stats: bool,
    /// Monitor every loop, as the paper does, even where the addresses'
    /// strides predict the hit rate (by default such loops skip monitoring).
    #[arg(long)]
    pub no_static_prediction: bool,
    /// On a fill, also prefetch into L2 the memory 128 bytes further on.
    #[arg(long)]
    pub prefetch: bool,
    /// Check every access's tag, also in loops whose strides let the
    /// iterations that stay in the resident lines run without checks.
    #[arg(long)]
    pub no_line_runs: bool,
    /// Pack lines in shared memory; by default each line is padded so that
    /// the threads of a warp reading the same offset hit different banks.
    #[arg(long)]
    pub no_line_padding: bool,
    /// Fill lines when they miss; by default line runs load the next line
    /// of a read-only structure into registers ahead.
    #[arg(long)]
    pub no_line_staging: bool,
    /// Copy lines thread by thread; by default a warp that misses as a
    /// whole moves its lines together, in requests of whole sectors.
    #[arg(long)]
    pub no_warp_copies: bool,
    /// Run every line run as one loop; by default a run over the rest of
    /// whole lines gets an unrolled copy whose byte accesses merge into
    /// 4-byte ones.
    #[arg(long)]
    pub no_full_runs: bool,
    /// Leave LLVM's own tuning for the device compilation: by default the
    /// driver passes the options in `DEVICE_TUNING` (a larger budget for the
    /// trip counts the runtime unroller computes) and the plugin's device
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
    /// Keep inner loops whose trip counts depend on loaded data nested. By
    /// default, in kernels S-L1 leaves alone, they merge into their
    /// top-level loop, so that a warp's threads advance together whichever
    /// loop each is in (a device rewrite: --no-device-rewrites drops it too).
    #[arg(long)]
    pub no_loop_merging: bool,
    /// Let clang lower switches to jump tables. Off by default: on the GPU a
    /// jump table is an indirect branch (`brx.idx`) that a warp whose threads
    /// take different cases serializes on, where a compare tree predicates.
    #[arg(long)]
    pub jump_tables: bool,
    /// One more argument for the host compiles and the link (repeatable),
    /// e.g. `--host-arg=-fopenmp` (nvcc's `-Xcompiler`).
    #[arg(long = "host-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub host_args: Vec<String>,
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
    /// Whether the plugin's device rewrites run (`-sl1-device-tuning`).
    pub fn device_rewrites(&self) -> bool {
        !self.no_device_tuning && !self.no_device_rewrites
    }

    /// (smallest, largest) line size: a line size given alone is fixed.
    /// These options with what a GPU profile (--gpu-profile) sets filled in
    /// where the user gave nothing.
    pub fn with_profile(&self) -> anyhow::Result<BuildArgs> {
        let mut args = self.clone();
        if let Some(path) = &self.gpu_profile {
            let profile = sl1_pass::profile::read_profile(path)?;
            if self.line_size.is_none() && self.max_line_size.is_none() {
                args.line_size = Some(profile.line_size);
                args.max_line_size = Some(profile.max_line_size);
            }
            args.shared_budget
                .get_or_insert(profile.shared_budget_bytes);
        }
        Ok(args)
    }

    /// The largest line size in kernels whose sliced loops only read: the
    /// pass's default (64 B), or the largest line size when line sizes are
    /// given (by options or a GPU profile).
    pub fn read_only_max_line_size(&self) -> u32 {
        if self.line_size.is_some() || self.max_line_size.is_some() {
            self.line_sizes().1
        } else {
            sl1_pass::Options::default().read_only_max_line_size
        }
    }

    /// Whether line buffers are sized at launch for this output.
    pub fn launch_sized(&self, emit: Emit) -> bool {
        self.line_buffer
            .map_or(matches!(emit, Emit::Exe | Emit::Obj), |b| {
                b == LineBuffer::Launch
            })
    }

    pub fn line_sizes(&self) -> (u32, u32) {
        let defaults = sl1_pass::Options::default();
        let line = self.line_size.unwrap_or(defaults.line_size);
        let max = self.max_line_size.unwrap_or(if self.line_size.is_some() {
            line
        } else {
            defaults.max_line_size.max(line)
        });
        (line, max)
    }
}

/// How `sl1-driver build` spells the pass option `option` (its name in
/// `sl1_core::option_list`) with its value placeholder, for the hints the
/// report's lines carry.
pub fn build_flag(option: &str, value: Option<&str>) -> String {
    let flag = match option {
        "disable" => "--no-sl1".to_string(),
        "launch-sized" => "--line-buffer launch".to_string(),
        other => format!("--{other}"),
    };
    match value {
        Some(v) => format!("{flag} {v}"),
        None => flag,
    }
}

/// Pass options the driver sets itself rather than through a flag of its
/// own: the device tuning (on unless `--no-device-tuning`), the largest line
/// of read-only loops (from the line sizes), the reports' paths, the test
/// hook.
pub const OPTIONS_THE_DRIVER_SETS: &[&str] = &[
    "device-tuning",
    "read-only-max-line-size",
    "launch-report",
    "panic-for-testing",
];

/// The reference table of the pass's options (`docs/options.md`), made
/// from the one list: each option as the plugin and `sl1-driver build`
/// spell it, and what it does.
pub fn options_table() -> String {
    use sl1_core::option_list::{Kind, PASS_OPTIONS};
    let mut out =
        String::from("| plugin (`-mllvm`) | `sl1-driver build` | what it does |\n|---|---|---|\n");
    for option in PASS_OPTIONS.iter().filter(|o| !o.hidden) {
        let value = match option.kind {
            Kind::Flag => None,
            Kind::Number => Some("N"),
            Kind::Bytes => Some("BYTES"),
            Kind::File => Some("FILE"),
        };
        let plugin = match value {
            Some(v) => format!("`-sl1-{}={v}`", option.name),
            None => format!("`-sl1-{}`", option.name),
        };
        let driver = if OPTIONS_THE_DRIVER_SETS.contains(&option.name) {
            "(set by the driver)".to_string()
        } else {
            format!("`{}`", build_flag(option.name, value))
        };
        // Markdown would read `__x__` as bold.
        let help = option
            .help
            .strip_prefix("S-L1: ")
            .unwrap_or(option.help)
            .replace("__", "\\_\\_");
        out.push_str(&format!("| {plugin} | {driver} | {help} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    fn line_sizes(args: &[&str]) -> (u32, u32) {
        let cli =
            super::Cli::try_parse_from(["sl1-driver", "build", "app.cu"].iter().chain(args.iter()))
                .unwrap();
        match cli.command {
            super::Command::Build(b) => b.line_sizes(),
            _ => unreachable!("a build command"),
        }
    }

    fn read_only_max(args: &[&str]) -> u32 {
        let cli =
            super::Cli::try_parse_from(["sl1-driver", "build", "app.cu"].iter().chain(args.iter()))
                .unwrap();
        match cli.command {
            super::Command::Build(b) => b.read_only_max_line_size(),
            _ => unreachable!("a build command"),
        }
    }

    #[test]
    fn every_pass_option_has_a_build_flag() {
        for option in sl1_core::option_list::PASS_OPTIONS {
            if super::OPTIONS_THE_DRIVER_SETS.contains(&option.name) {
                continue;
            }
            let value = match option.kind {
                sl1_core::option_list::Kind::Flag => None,
                _ => Some("64"),
            };
            let flag = super::build_flag(option.name, value);
            let args = ["sl1-driver", "build", "app.cu"]
                .into_iter()
                .map(String::from)
                .chain(flag.split(' ').map(String::from));
            if let Err(e) = super::Cli::try_parse_from(args) {
                panic!("-sl1-{} has no build flag `{flag}`: {e}", option.name);
            }
        }
    }

    #[test]
    fn loops_that_only_read_take_64_byte_lines_unless_line_sizes_are_given() {
        assert_eq!(read_only_max(&[]), 64);
        assert_eq!(read_only_max(&["--max-line-size", "32"]), 32);
        assert_eq!(read_only_max(&["--line-size", "16"]), 16);
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
}

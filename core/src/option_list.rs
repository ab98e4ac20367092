//! The pass's options, declared once: the plugin's C++ half creates its
//! `cl::opt`s (`-mllvm -sl1-NAME`) from [`PASS_OPTIONS`] and hands what the
//! command line gave back as one serialized value ([`PluginSettings::parse`]);
//! `sl1-driver build` makes its flags from the same list ([`BuildFlag`]) and
//! writes them for the plugin in its spelling ([`PluginSettings::arguments`]).
//! Help texts name other options as `{NAME}`, which each front end spells
//! ([`PassOption::help_in`]).

use std::path::Path;

use crate::error::Error;
use crate::options::Options;
use crate::profile::{self, read_profile};
use crate::rates;

/// What an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Kind {
    /// On when given (`-sl1-NAME`, or `-sl1-NAME=false`).
    Flag = 0,
    /// A count (u32).
    Number = 1,
    /// Bytes (u64).
    Bytes = 2,
    /// A file path.
    File = 3,
}

impl Kind {
    /// The placeholder of the value in help and hints (`None` for a flag).
    pub fn placeholder(self) -> Option<&'static str> {
        match self {
            Kind::Flag => None,
            Kind::Number => Some("N"),
            Kind::Bytes => Some("BYTES"),
            Kind::File => Some("FILE"),
        }
    }
}

/// How `sl1-driver build` gives an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildFlag {
    /// `--NAME`, with the option's help.
    Same,
    /// `--OTHER`, with the option's help (`disable` is `--no-sl1`).
    Renamed(&'static str),
    /// The driver sets the option from flags of its own; hints spell it as
    /// the text given (`--line-buffer launch`), or not at all.
    SetByDriver(Option<&'static str>),
}

/// One option of the plugin.
#[derive(Clone, Copy, Debug)]
pub struct PassOption {
    /// `-sl1-NAME`.
    pub name: &'static str,
    /// What it does; `{OTHER}` names option OTHER (see [`PassOption::help_in`]).
    pub help: &'static str,
    pub kind: Kind,
    pub build: BuildFlag,
    /// Left out of `-help` (tests only).
    pub hidden: bool,
    /// A flag that is on unless `-sl1-NAME=false` turns it off: the
    /// driver's defaults, which the plugin alone keeps too.
    pub default_on: bool,
}

impl PassOption {
    /// The help with each `{OTHER}` spelled by `spell` (given OTHER's name).
    pub fn help_in(&self, spell: impl Fn(&str) -> String) -> String {
        let mut out = String::new();
        let mut rest = self.help;
        while let Some(open) = rest.find('{') {
            let Some(len) = rest[open..].find('}') else {
                break;
            };
            let name = &rest[open + 1..open + len];
            out.push_str(&rest[..open]);
            match pass_option(name) {
                Some(_) => out.push_str(&spell(name)),
                None => out.push_str(&rest[open..=open + len]),
            }
            rest = &rest[open + len + 1..];
        }
        out.push_str(rest);
        out
    }

    /// The help as the plugin's `-help` prints it.
    pub fn plugin_help(&self) -> String {
        format!("S-L1: {}", self.help_in(|name| format!("-sl1-{name}")))
    }

    /// How `sl1-driver build` spells this option (with `value` after it),
    /// if it has a spelling.
    pub fn build_spelling(&self, value: Option<&str>) -> Option<String> {
        let flag = match self.build {
            BuildFlag::Same => format!("--{}", self.name),
            BuildFlag::Renamed(other) => format!("--{other}"),
            BuildFlag::SetByDriver(spelling) => return spelling.map(String::from),
        };
        Some(match value {
            Some(v) => format!("{flag} {v}"),
            None => flag,
        })
    }
}

const fn option(name: &'static str, kind: Kind, help: &'static str) -> PassOption {
    PassOption {
        name,
        help,
        kind,
        build: BuildFlag::Same,
        hidden: false,
        default_on: false,
    }
}

const fn on_by_default(option: PassOption) -> PassOption {
    PassOption {
        default_on: true,
        ..option
    }
}

const fn set_by_driver(option: PassOption, spelling: Option<&'static str>) -> PassOption {
    PassOption {
        build: BuildFlag::SetByDriver(spelling),
        ..option
    }
}

/// LLVM's options that device tuning sets (`-sl1-device-tuning`, on by
/// default; the plugin sets them for device modules where the command line
/// does not, `sl1-driver build` gives them to clang). A budget of 6
/// instead of 4 for expanding SCEV expressions lets the runtime unroller
/// compute trip counts like `min(n, tid*chunk + chunk) - tid*chunk`, so the
/// per-thread chunk loops of the app suite unroll as nvcc unrolls them:
/// measured on the H100, affinity 0.92x to 1.00x of nvcc, pvc 1.21x to 1.25x,
/// the other apps unchanged (docs/benchmarks.md). SLP's search for
/// horizontal reductions finds none worth a vector on NVPTX but costs time
/// that grows with a block's length: `wc`'s 127-copy full runs spent 0.15 s
/// in it; without it the PTX of the apps, the do-no-harm kernels, the test
/// programs and 275 HeCBench programs is unchanged (2026-11-27).
pub const DEVICE_LLVM_OPTIONS: &[(&str, &str)] = &[
    ("scev-cheap-expansion-budget", "6"),
    ("slp-vectorize-hor", "false"),
];

/// Every option of the plugin, in `-help` order.
pub const PASS_OPTIONS: &[PassOption] = &[
    PassOption {
        build: BuildFlag::Renamed("no-sl1"),
        ..option(
            "disable",
            Kind::Flag,
            "Analyse and report, but leave kernels untransformed (the same pipeline without \
             the S-L1 transform, for comparison)",
        )
    },
    option(
        "threshold",
        Kind::Number,
        "Accesses simulated per thread before deciding what to cache (300)",
    ),
    option(
        "line-size",
        Kind::Number,
        "Cache line size in bytes, 8, 16 (the default), 32, 64 or 128: the smallest a launch \
         may pick; given alone, the only one",
    ),
    option(
        "max-line-size",
        Kind::Number,
        "Largest line size a launch may pick: the runtime takes the largest size up to this \
         that gives every cached structure a line for every thread of the block (default 32, \
         or {line-size} when that is given)",
    ),
    set_by_driver(
        option(
            "read-only-max-line-size",
            Kind::Number,
            "Largest line size in kernels whose sliced loops only read (default 64, or the \
             largest line size when line sizes are given)",
        ),
        None,
    ),
    set_by_driver(
        option(
            "stream-max-line-size",
            Kind::Number,
            "Largest line size in kernels whose sliced loops only stream: every cached \
             structure only read or only written, each byte once, all by one stride (default \
             128, or the largest line size when line sizes are given)",
        ),
        None,
    ),
    option(
        "max-threads",
        Kind::Number,
        "Block size the line buffer is provisioned for when a kernel has no \
         __launch_bounds__ (1024)",
    ),
    option(
        "force-uncached",
        Kind::Flag,
        "Insert the cache but decide to cache nothing at run time (measures its overhead)",
    ),
    option(
        "cache-read-only",
        Kind::Flag,
        "Cache read-only restrict arguments too (the paper's choice; by default they are left \
         to the hardware L1, which serves them well on GPUs with a large one)",
    ),
    option(
        "stats",
        Kind::Flag,
        "Count simulated and real hits and misses per data structure at run time, into the \
         global `sl1_stats_<kernel>` (six u64 per structure), and the threads down each path \
         of every run-time alias check made, into `sl1_alias_paths_<kernel>` (apart, \
         overlapping: two u64 per check; a loop too short to repay its check takes the \
         original unchecked and uncounted); slower, for study",
    ),
    option(
        "no-static-prediction",
        Kind::Flag,
        "Monitor every loop, as the paper does, even where the addresses' strides predict the \
         hit rate (by default such loops skip monitoring)",
    ),
    option(
        "prefetch",
        Kind::Flag,
        "On a fill, also prefetch into L2 the memory 128 bytes further on (pays at low \
         occupancy only)",
    ),
    option(
        "no-line-runs",
        Kind::Flag,
        "Check every access's tag, also in loops whose strides let the iterations that stay \
         in the resident lines run without checks",
    ),
    option(
        "no-line-padding",
        Kind::Flag,
        "Pack lines in shared memory; by default each line is padded so that the threads of \
         a warp reading the same offset hit different banks",
    ),
    option(
        "no-line-staging",
        Kind::Flag,
        "Fill lines when they miss; by default line runs load the next line of a read-only \
         structure into registers ahead",
    ),
    option(
        "no-warp-copies",
        Kind::Flag,
        "Copy lines thread by thread; by default a warp that misses as a whole moves its lines \
         together, in requests of whole sectors",
    ),
    option(
        "no-warp-ranges",
        Kind::Flag,
        "Leave every loop to the lines; by default a loop whose iterations are independent \
         over per-thread chunks gets a copy in which a warp whose chunks are adjacent walks \
         them together, 16 bytes a lane",
    ),
    option(
        "no-full-runs",
        Kind::Flag,
        "Run every line run as one loop; by default a run over the rest of whole lines gets \
         an unrolled copy whose byte accesses merge into 4-byte ones",
    ),
    on_by_default(set_by_driver(
        option(
            "device-tuning",
            Kind::Flag,
            "Device rewrites (also with {disable}; on unless -sl1-device-tuning=false): small \
             switches that only choose values become selects; divisions that nested loops' \
             addresses build on are frozen so that loop strength reduction can bump those \
             addresses; inner loops whose trip counts depend on loaded data merge into their \
             top-level loop; and LLVM's unroller and SLP vectorizer are set as for the driver \
             (scev-cheap-expansion-budget=6, slp-vectorize-hor=false, unless given)",
        ),
        None,
    )),
    set_by_driver(
        option(
            "jump-tables",
            Kind::Flag,
            "Let LLVM lower switches in device code to jump tables. By default device \
             functions get no-jump-tables, as clang's -fno-jump-tables: on the GPU a jump \
             table is an indirect branch, which a warp whose threads take different cases \
             runs case by case",
        ),
        Some("--jump-tables"),
    ),
    option(
        "no-loop-merging",
        Kind::Flag,
        "Keep inner loops whose trip counts depend on loaded data nested. By default, in \
         kernels S-L1 leaves alone, they merge into their top-level loop, so that a warp's \
         threads advance together whichever loop each is in (a device rewrite)",
    ),
    option(
        "no-alias-checks",
        Kind::Flag,
        "Leave loops over arguments without __restrict__ as they are. By default a loop whose \
         pointer ranges can be bounded gets a copy in which the pointers do not alias, entered \
         when a test before the loop finds the ranges apart, where S-L1 takes them as restrict \
         (a device rewrite)",
    ),
    option(
        "no-vector-loads",
        Kind::Flag,
        "Keep each load of an unrolled loop on its own. By default a loop that reads adjacent \
         elements gets a copy that reads them 16 bytes at a time, entered when the first \
         address is aligned (a device rewrite)",
    ),
    option(
        "no-strided-unroll",
        Kind::Flag,
        "Leave grid-stride loops (a step known at run time only) to LLVM's unroller, which \
         keeps them rolled. By default a small one that reads memory is unrolled 4 times, as \
         nvcc does, so that each thread has four loads in flight (a device rewrite)",
    ),
    option(
        "counted-trips",
        Kind::Flag,
        "Count the trips of inner loops whose start moves with the enclosing loop from zero, \
         to a trip count computed before the loop, so that LLVM's runtime unroller unrolls \
         them as nvcc does (a device rewrite, off by default until timed)",
    ),
    option(
        "shared-budget",
        Kind::Bytes,
        "Shared memory in bytes a block's line buffer and the kernel's own static shared \
         memory may take together (49152, the most a block gets without opting in, or the GPU \
         profile's)",
    ),
    option(
        "dynamic-shared",
        Kind::Bytes,
        "The most dynamic shared memory (extern __shared__) a kernel launch gives, in bytes. \
         Kernels that use dynamic shared memory get lines only with it, from the budget less \
         this; a launch that gives more may fail for want of shared memory. Without it they \
         stay untransformed",
    ),
    option(
        "gpu-profile",
        Kind::File,
        "Take the line sizes, the shared-memory budget and the memory rates of the gain bound \
         from a GPU profile, the JSON file `sl1-driver probe` writes (options given here win); \
         or name a GPU whose memory rates S-L1 carries, `h100` (the default's) or `h200`",
    ),
    set_by_driver(
        option(
            "launch-sized",
            Kind::Flag,
            "Put line buffers in dynamic shared memory, sized per block at launch (device \
             compile); the launches must add the bytes the report gives ({launch-report} in \
             the host compile does)",
        ),
        Some("--line-buffer launch"),
    ),
    set_by_driver(
        option(
            "launch-report",
            Kind::File,
            "The device compile's report (host compile): launches of its kernels with \
             lines ask for the carveout of their resident blocks, and those with \
             launch-sized line buffers get their bytes",
        ),
        None,
    ),
    set_by_driver(
        option(
            "report",
            Kind::File,
            "Write the JSON report of each device module to this file",
        ),
        Some("--report FILE"),
    ),
    PassOption {
        hidden: true,
        ..set_by_driver(
            option(
                "panic-for-testing",
                Kind::Flag,
                "Fail inside the pass (tests the error path)",
            ),
            None,
        )
    },
];

/// The option `name` of [`PASS_OPTIONS`].
pub fn pass_option(name: &str) -> Option<&'static PassOption> {
    PASS_OPTIONS.iter().find(|o| o.name == name)
}

/// An option worth knowing where S-L1 reports a decision it changes: the
/// option (in the plugin's spelling, an entry of [`PASS_OPTIONS`]), the
/// placeholder of its value if it takes one, and what it does there. Each
/// front end writes it with its own spelling of the option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    pub option: &'static str,
    pub value: Option<&'static str>,
    pub effect: &'static str,
}

impl Hint {
    /// ` (FLAG EFFECT)`, the flag spelled by `flag` from the option's name
    /// and value placeholder (an effect that starts with a comma follows
    /// the flag directly).
    pub fn note(&self, flag: impl Fn(&str, Option<&str>) -> String) -> String {
        let flag = flag(self.option, self.value);
        match self.effect {
            "" => format!(" ({flag})"),
            clause if clause.starts_with(',') => format!(" ({flag}{clause})"),
            effect => format!(" ({flag} {effect})"),
        }
    }

    /// The plugin's spelling: `-mllvm -sl1-NAME[=VALUE]`.
    pub fn plugin_flag(option: &str, value: Option<&str>) -> String {
        match value {
            Some(v) => format!("-mllvm -sl1-{option}={v}"),
            None => format!("-mllvm -sl1-{option}"),
        }
    }
}

/// Everything a plugin run takes from the command line: the options, and
/// the plugin's own settings beside them. The default is the plugin's with
/// no `-sl1-*` option given: the driver's defaults (device tuning on).
#[derive(Clone, Debug, PartialEq)]
pub struct PluginSettings {
    pub options: Options,
    /// `-sl1-report`: where the JSON report goes.
    pub report: Option<String>,
    /// `-sl1-launch-report` (host compile): the device compile's report.
    pub launch_report: Option<String>,
    /// `-sl1-panic-for-testing`.
    pub panic_for_testing: bool,
    /// `-sl1-jump-tables`: device functions keep the jump tables LLVM
    /// makes (else they get `no-jump-tables`).
    pub jump_tables: bool,
}

impl Default for PluginSettings {
    fn default() -> PluginSettings {
        PluginSettings {
            options: Options {
                device_tuning: true,
                ..Options::default()
            },
            report: None,
            launch_report: None,
            panic_for_testing: false,
            jump_tables: false,
        }
    }
}

/// The options given on a command line, by name.
struct CommandLine<'a>(Vec<(&'a str, &'a str)>);

impl<'a> CommandLine<'a> {
    fn get(&self, name: &str) -> Option<&'a str> {
        self.0
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
    }

    fn flag(&self, name: &str) -> Result<Option<bool>, Error> {
        self.get(name)
            .map(|v| match v {
                "true" | "1" | "" => Ok(true),
                "false" | "0" => Ok(false),
                _ => Err(bad_value(name, v, "true or false")),
            })
            .transpose()
    }

    fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, Error> {
        self.get(name)
            .map(|v| v.parse().map_err(|_| bad_value(name, v, "a whole number")))
            .transpose()
    }
}

fn bad_value(name: &str, value: &str, wanted: &str) -> Error {
    Error::InvalidOption(format!("-sl1-{name}={value}: the value must be {wanted}"))
}

/// A profile that is not there, given as a bare name, may be a GPU's that
/// S-L1 has no figures for: the error says which it has.
fn name_the_known_gpus(error: Error, path: &Path) -> Error {
    match error {
        Error::Profile { path: p, message }
            if !path.exists() && path.components().count() == 1 && path.extension().is_none() =>
        {
            let known: Vec<&str> = rates::KNOWN_GPUS.iter().map(|(name, _)| *name).collect();
            Error::Profile {
                path: p,
                message: format!(
                    "{message} (neither a file nor a GPU S-L1 has rates for: {})",
                    known.join(", ")
                ),
            }
        }
        other => other,
    }
}

impl PluginSettings {
    /// The settings a command line gave: `given` holds one `NAME=VALUE` line
    /// for each option it named (the plugin's serialized value). A line size
    /// given alone fixes the size; line sizes given set the largest line of
    /// read-only loops too; a GPU profile fills in what was not given.
    pub fn parse(given: &str) -> Result<PluginSettings, Error> {
        let mut pairs = Vec::new();
        for line in given.lines().filter(|l| !l.is_empty()) {
            let (name, value) = line.split_once('=').unwrap_or((line, ""));
            if pass_option(name).is_none() {
                return Err(Error::InvalidOption(format!("unknown option -sl1-{name}")));
            }
            pairs.push((name, value));
        }
        let given = CommandLine(pairs);
        let defaults = Options::default();
        let line_size = given.number("line-size")?;
        let max_line_size = given.number("max-line-size")?;
        let line = line_size.unwrap_or(defaults.line_size);
        let max = max_line_size.unwrap_or(if line_size.is_some() {
            line
        } else {
            defaults.max_line_size
        });
        let line_sizes_given = line_size.is_some() || max_line_size.is_some();
        let shared_budget = given.number("shared-budget")?;
        let on = |name: &str| {
            let default = pass_option(name).is_some_and(|o| o.default_on);
            given.flag(name).map(|f| f.unwrap_or(default))
        };
        let mut options = Options {
            threshold: given.number("threshold")?.unwrap_or(defaults.threshold),
            line_size: line,
            max_line_size: max,
            read_only_max_line_size: given.number("read-only-max-line-size")?.unwrap_or(
                if line_sizes_given {
                    max
                } else {
                    defaults.read_only_max_line_size
                },
            ),
            stream_max_line_size: given.number("stream-max-line-size")?.unwrap_or(
                if line_sizes_given {
                    max
                } else {
                    defaults.stream_max_line_size
                },
            ),
            transform: !on("disable")?,
            max_threads: given.number("max-threads")?.unwrap_or(defaults.max_threads),
            force_uncached: on("force-uncached")?,
            cache_read_only: on("cache-read-only")?,
            stats: on("stats")?,
            static_prediction: !on("no-static-prediction")?,
            prefetch: on("prefetch")?,
            line_runs: !on("no-line-runs")?,
            line_padding: !on("no-line-padding")?,
            line_staging: !on("no-line-staging")?,
            warp_copies: !on("no-warp-copies")?,
            warp_ranges: !on("no-warp-ranges")?,
            full_runs: !on("no-full-runs")?,
            device_tuning: on("device-tuning")?,
            loop_merging: !on("no-loop-merging")?,
            alias_checks: !on("no-alias-checks")?,
            vector_loads: !on("no-vector-loads")?,
            strided_unroll: !on("no-strided-unroll")?,
            counted_trips: on("counted-trips")?,
            shared_budget: shared_budget.unwrap_or(defaults.shared_budget),
            dynamic_shared: given.number("dynamic-shared")?,
            launch_sized: on("launch-sized")?,
            gpu_profile: None,
            memory_rates: defaults.memory_rates.clone(),
            fail_kernel_for_testing: None,
        };
        if let Some(value) = given.get("gpu-profile").filter(|p| !p.is_empty()) {
            let path = Path::new(value);
            // A GPU's name, unless a file of that name is there.
            match rates::of_gpu(value).filter(|_| !path.exists()) {
                Some(rates) => options.apply_known_gpu(value, rates),
                None => {
                    let profile = read_profile(path).map_err(|e| name_the_known_gpus(e, path))?;
                    let given = profile::Given {
                        line_sizes: line_sizes_given,
                        shared_budget: shared_budget.is_some(),
                    };
                    options.apply_profile(path, &profile, given);
                }
            }
        }
        let path = |name: &str| given.get(name).filter(|p| !p.is_empty()).map(String::from);
        Ok(PluginSettings {
            options,
            report: path("report"),
            launch_report: path("launch-report"),
            panic_for_testing: on("panic-for-testing")?,
            jump_tables: on("jump-tables")?,
        })
    }

    /// The plugin's command-line arguments (`-sl1-NAME=VALUE`, each after
    /// `-mllvm`) that give these settings: every count and the budget, the
    /// rest where they differ from the default.
    pub fn arguments(&self) -> Vec<String> {
        let o = &self.options;
        let mut named: Vec<(&str, Option<String>)> = vec![
            ("threshold", Some(o.threshold.to_string())),
            ("line-size", Some(o.line_size.to_string())),
            ("max-line-size", Some(o.max_line_size.to_string())),
            (
                "read-only-max-line-size",
                Some(o.read_only_max_line_size.to_string()),
            ),
            (
                "stream-max-line-size",
                Some(o.stream_max_line_size.to_string()),
            ),
            ("max-threads", Some(o.max_threads.to_string())),
            ("shared-budget", Some(o.shared_budget.to_string())),
            ("dynamic-shared", o.dynamic_shared.map(|b| b.to_string())),
            ("gpu-profile", o.gpu_profile.clone()),
            ("report", self.report.clone()),
            ("launch-report", self.launch_report.clone()),
        ];
        // Flags on by default are given either way, so that what the
        // driver writes does not hang on the plugin's defaults.
        named.push((
            "device-tuning",
            (!o.device_tuning).then(|| "false".to_string()),
        ));
        let flags = [
            ("disable", !o.transform),
            ("launch-sized", o.launch_sized),
            ("force-uncached", o.force_uncached),
            ("cache-read-only", o.cache_read_only),
            ("stats", o.stats),
            ("prefetch", o.prefetch),
            ("no-static-prediction", !o.static_prediction),
            ("no-line-runs", !o.line_runs),
            ("no-line-padding", !o.line_padding),
            ("no-line-staging", !o.line_staging),
            ("no-warp-copies", !o.warp_copies),
            ("no-warp-ranges", !o.warp_ranges),
            ("no-full-runs", !o.full_runs),
            ("no-loop-merging", o.device_tuning && !o.loop_merging),
            ("no-alias-checks", o.device_tuning && !o.alias_checks),
            ("no-vector-loads", o.device_tuning && !o.vector_loads),
            ("no-strided-unroll", o.device_tuning && !o.strided_unroll),
            ("counted-trips", o.device_tuning && o.counted_trips),
            ("panic-for-testing", self.panic_for_testing),
            ("jump-tables", self.jump_tables),
        ];
        named.extend(flags.iter().filter(|(_, on)| *on).map(|&(n, _)| (n, None)));
        PASS_OPTIONS
            .iter()
            .filter_map(|spec| {
                let (_, value) = named.iter().find(|(n, _)| *n == spec.name)?;
                match (spec.kind, value) {
                    (Kind::Flag, Some(v)) => Some(format!("-sl1-{}={v}", spec.name)),
                    (Kind::Flag, None) => Some(format!("-sl1-{}", spec.name)),
                    (_, Some(v)) => Some(format!("-sl1-{}={v}", spec.name)),
                    (_, None) => None,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-sl1-a=1 -sl1-b` as the plugin serializes it.
    fn serialized(args: &[String]) -> String {
        args.iter()
            .map(|a| {
                let a = a.strip_prefix("-sl1-").expect("a plugin option");
                if a.contains('=') {
                    format!("{a}\n")
                } else {
                    format!("{a}=true\n")
                }
            })
            .collect()
    }

    #[test]
    fn names_are_unique_and_every_written_option_is_declared() {
        for (i, o) in PASS_OPTIONS.iter().enumerate() {
            assert!(
                PASS_OPTIONS[..i].iter().all(|p| p.name != o.name),
                "{} twice",
                o.name
            );
        }
        let everything = PluginSettings {
            options: Options {
                transform: false,
                force_uncached: true,
                cache_read_only: true,
                stats: true,
                static_prediction: false,
                prefetch: true,
                line_runs: false,
                line_padding: false,
                line_staging: false,
                warp_copies: false,
                warp_ranges: false,
                full_runs: false,
                device_tuning: true,
                loop_merging: false,
                alias_checks: false,
                vector_loads: false,
                strided_unroll: false,
                counted_trips: true,
                dynamic_shared: Some(1024),
                launch_sized: true,
                ..Options::default()
            },
            report: Some("r.json".into()),
            launch_report: Some("d.json".into()),
            panic_for_testing: true,
            jump_tables: true,
        };
        let args = everything.arguments();
        let gpu_profile_needs_a_file = 1;
        assert_eq!(args.len(), PASS_OPTIONS.len() - gpu_profile_needs_a_file);
    }

    #[test]
    fn what_the_driver_writes_the_plugin_reads_back() {
        let settings = PluginSettings {
            options: Options {
                threshold: 77,
                line_size: 8,
                max_line_size: 64,
                read_only_max_line_size: 32,
                stream_max_line_size: 64,
                max_threads: 256,
                shared_budget: 20000,
                stats: true,
                line_runs: false,
                device_tuning: true,
                loop_merging: false,
                alias_checks: false,
                vector_loads: false,
                dynamic_shared: Some(4096),
                ..Options::default()
            },
            report: Some("/tmp/r.json".into()),
            launch_report: None,
            panic_for_testing: false,
            jump_tables: false,
        };
        let back = PluginSettings::parse(&serialized(&settings.arguments())).unwrap();
        assert_eq!(back, settings);
    }

    #[test]
    fn a_gpu_named_instead_of_a_profile_gives_its_rates_and_goes_through() {
        let h200 = PluginSettings::parse("gpu-profile=H200\n").unwrap();
        assert_eq!(h200.options.memory_rates, crate::rates::h200());
        assert_eq!(h200.options.gpu_profile.as_deref(), Some("H200"));
        // Only the rates: line sizes and budget stay the defaults.
        let d = Options::default();
        assert_eq!(
            (h200.options.line_size, h200.options.shared_budget),
            (d.line_size, d.shared_budget)
        );
        // The driver's arguments name it again for the plugin.
        let back = PluginSettings::parse(&serialized(&h200.arguments())).unwrap();
        assert_eq!(back, h200);
        // A name S-L1 has no figures for is read as a file, and is not one.
        let err = PluginSettings::parse("gpu-profile=b200\n").unwrap_err();
        assert!(err.to_string().contains("b200"), "{err}");
        assert!(err.to_string().contains("h100, h200"), "{err}");
    }

    #[test]
    fn a_hint_is_written_in_the_front_end_s_spelling() {
        let read_only = Hint {
            option: "cache-read-only",
            value: None,
            effect: "caches them",
        };
        assert_eq!(
            read_only.note(Hint::plugin_flag),
            " (-mllvm -sl1-cache-read-only caches them)"
        );
        let declared = Hint {
            option: "dynamic-shared",
            value: Some("BYTES"),
            effect: ", the most a launch gives, helps",
        };
        let driver = |o: &str, v: Option<&str>| format!("--{o} {}", v.unwrap_or_default());
        assert_eq!(
            declared.note(driver),
            " (--dynamic-shared BYTES, the most a launch gives, helps)"
        );
        let bare = Hint {
            effect: "",
            ..read_only
        };
        assert_eq!(
            bare.note(Hint::plugin_flag),
            " (-mllvm -sl1-cache-read-only)"
        );
    }

    #[test]
    fn the_plugin_alone_keeps_the_driver_s_defaults() {
        // Device tuning on and jump tables off unless a command line says
        // otherwise, as `sl1-driver build` does.
        let alone = PluginSettings::parse("").unwrap();
        assert!(alone.options.device_tuning && !alone.jump_tables);
        let off = PluginSettings::parse("device-tuning=false\njump-tables=true\n").unwrap();
        assert!(!off.options.device_tuning && off.jump_tables);
        let args = off.arguments();
        assert!(
            args.contains(&"-sl1-device-tuning=false".to_string()),
            "{args:?}"
        );
        assert!(args.contains(&"-sl1-jump-tables".to_string()), "{args:?}");
        assert_eq!(PluginSettings::parse(&serialized(&args)).unwrap(), off);
        assert!(pass_option("device-tuning").unwrap().default_on);
    }

    #[test]
    fn defaults_and_the_line_size_rules() {
        assert_eq!(
            PluginSettings::parse("").unwrap(),
            PluginSettings::default()
        );
        let alone = PluginSettings::parse("line-size=32\n").unwrap().options;
        assert_eq!(
            (
                alone.line_size,
                alone.max_line_size,
                alone.read_only_max_line_size,
                alone.stream_max_line_size
            ),
            (32, 32, 32, 32)
        );
        let max = PluginSettings::parse("max-line-size=16\n").unwrap().options;
        assert_eq!(
            (
                max.line_size,
                max.max_line_size,
                max.read_only_max_line_size,
                max.stream_max_line_size
            ),
            (16, 16, 16, 16)
        );
        let off = PluginSettings::parse("disable=true\nstats=false\n")
            .unwrap()
            .options;
        assert!(!off.transform && !off.stats);
    }

    #[test]
    fn bad_values_and_unknown_names_are_errors_that_name_them() {
        let err = PluginSettings::parse("threshold=many\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("-sl1-threshold=many"), "{err}");
        let err = PluginSettings::parse("stats=maybe\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("-sl1-stats=maybe"), "{err}");
        let err = PluginSettings::parse("line-sise=32\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("-sl1-line-sise"), "{err}");
    }
}

//! The build modes the fuzzer compares with the plain build: `modes.txt`
//! (`name: sl1-driver build options`, one a line), compiled in, so that the
//! list the bundle runs is the list the docs and CI read. Options go
//! through the driver's own command-line parser, so a mode means exactly
//! what `sl1-driver build kernel.ll OPTIONS` means.

use clap::Parser as _;
use sl1_driver::cli::{BuildArgs, Cli, Command, Emit};
use thiserror::Error;

/// The list, as committed.
pub const MODES_TXT: &str = include_str!("../modes.txt");

/// The reference build every mode is compared with, and its options.
pub const PLAIN: &str = "plain";
pub const PLAIN_OPTIONS: &str = "--no-sl1 --no-device-tuning";

/// One build mode: its name, its options as written, and them parsed.
#[derive(Clone, Debug)]
pub struct Mode {
    pub name: String,
    pub options: String,
    pub args: BuildArgs,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ModeError {
    #[error("modes.txt line {line}: expected `name: options`, found `{text}`")]
    Syntax { line: usize, text: String },
    #[error("modes.txt: mode `{0}` is listed twice")]
    Duplicate(String),
    #[error("mode `{name}`: `{options}` is not a valid sl1-driver build option list: {message}")]
    Options {
        name: String,
        options: String,
        message: String,
    },
    #[error("unknown mode `{name}`; the modes are: {known} (or `all`)")]
    Unknown { name: String, known: String },
    #[error("no mode selected; the modes are: {0} (or `all`)")]
    Empty(String),
}

impl Mode {
    /// A mode named `name` building with `options` (whitespace-separated
    /// `sl1-driver build` options).
    pub fn new(name: &str, options: &str) -> Result<Mode, ModeError> {
        let args = build_args(options).map_err(|message| ModeError::Options {
            name: name.to_string(),
            options: options.to_string(),
            message,
        })?;
        Ok(Mode {
            name: name.to_string(),
            options: options.to_string(),
            args,
        })
    }

    /// The plain build (no S-L1, no device tuning): what clang makes.
    pub fn plain() -> Mode {
        Mode::new(PLAIN, PLAIN_OPTIONS).expect("the plain options parse")
    }
}

/// `options` as the driver's `build` command parses them, for an IR input.
fn build_args(options: &str) -> Result<BuildArgs, String> {
    let argv = ["sl1-driver", "build", "kernel.ll"]
        .into_iter()
        .chain(options.split_whitespace());
    let cli = Cli::try_parse_from(argv).map_err(|e| {
        // clap's message ends with a usage block; its first line says it.
        e.to_string()
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string()
    })?;
    let Command::Build(args) = cli.command else {
        unreachable!("the argument list starts with `build`")
    };
    // Bad values and GPU profiles fail when the mode is read.
    args.settings(Emit::Ptx).map_err(|e| e.to_string())?;
    Ok(*args)
}

/// Parses a modes list: blank lines and `#` comments skipped.
pub fn parse(text: &str) -> Result<Vec<Mode>, ModeError> {
    let mut modes: Vec<Mode> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let syntax = || ModeError::Syntax {
            line: i + 1,
            text: line.to_string(),
        };
        let (name, options) = line.split_once(':').ok_or_else(syntax)?;
        let name = name.trim();
        let valid = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if name.is_empty() || !name.chars().all(valid) {
            return Err(syntax());
        }
        if name == PLAIN || modes.iter().any(|m| m.name == name) {
            return Err(ModeError::Duplicate(name.to_string()));
        }
        modes.push(Mode::new(name, options.trim())?);
    }
    Ok(modes)
}

/// Every mode of `modes.txt`.
pub fn all() -> Vec<Mode> {
    parse(MODES_TXT).expect("modes.txt is checked by the unit tests")
}

/// The modes named in `list` (comma-separated, in that order, each once),
/// or every one for `all`.
pub fn select(list: &str) -> Result<Vec<Mode>, ModeError> {
    select_from(all(), list)
}

fn select_from(modes: Vec<Mode>, list: &str) -> Result<Vec<Mode>, ModeError> {
    let known = || {
        modes
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if list.trim() == "all" {
        return Ok(modes);
    }
    let mut chosen: Vec<Mode> = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if chosen.iter().any(|m| m.name == name) {
            continue;
        }
        let mode = modes
            .iter()
            .find(|m| m.name == name)
            .ok_or_else(|| ModeError::Unknown {
                name: name.to_string(),
                known: known(),
            })?;
        chosen.push(mode.clone());
    }
    if chosen.is_empty() {
        return Err(ModeError::Empty(known()));
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_list_parses_and_covers_the_issue_s_modes() {
        let modes = parse(MODES_TXT).unwrap();
        assert!(modes.len() >= 20, "{} modes", modes.len());
        let names: Vec<&str> = modes.iter().map(|m| m.name.as_str()).collect();
        for name in ["default", "paper", "t1-l8", "t20-l64", "rewrites-only"] {
            assert!(names.contains(&name), "{name} missing from {names:?}");
        }
        let options = |name: &str| {
            let mode = modes.iter().find(|m| m.name == name).unwrap();
            mode.args.settings(Emit::Ptx).unwrap().options
        };
        let paper = options("paper");
        assert!(paper.cache_read_only && !paper.static_prediction);
        assert_eq!((paper.line_size, paper.max_line_size), (16, 16));
        let default = options("default");
        assert!(default.transform && default.threshold == 300);
        assert_eq!(
            modes.iter().find(|m| m.name == "default").unwrap().options,
            ""
        );
        assert_eq!(options("dynamic-shared").dynamic_shared, Some(8192));
    }

    #[test]
    fn plain_is_clang_without_s_l1_or_tuning() {
        let plain = Mode::plain();
        assert!(!plain.args.transform() && plain.args.no_device_tuning);
    }

    #[test]
    fn bad_lists_are_refused_with_the_line() {
        assert_eq!(
            parse("# c\n\ndefault:\nnonsense\n").unwrap_err(),
            ModeError::Syntax {
                line: 4,
                text: "nonsense".into()
            }
        );
        assert_eq!(
            parse("a:\na: --stats\n").unwrap_err(),
            ModeError::Duplicate("a".into())
        );
        assert_eq!(
            parse("plain: --stats\n").unwrap_err(),
            ModeError::Duplicate("plain".into())
        );
        let err = parse("x: --no-such-option\n").unwrap_err();
        assert!(
            matches!(&err, ModeError::Options { name, message, .. }
                if name == "x" && message.contains("--no-such-option")),
            "{err}"
        );
        let err = parse("y: --threshold many\n").unwrap_err().to_string();
        assert!(err.contains("mode `y`") && err.contains("many"), "{err}");
    }

    #[test]
    fn selection_by_name_or_all() {
        let modes = parse("a:\nb: --stats\nc: --prefetch\n").unwrap();
        let names = |list: &str| -> Vec<String> {
            select_from(modes.clone(), list)
                .unwrap()
                .into_iter()
                .map(|m| m.name)
                .collect()
        };
        assert_eq!(names("all"), ["a", "b", "c"]);
        assert_eq!(names("c, a,c"), ["c", "a"]);
        let err = select_from(modes.clone(), "a,zz").unwrap_err().to_string();
        assert_eq!(err, "unknown mode `zz`; the modes are: a, b, c (or `all`)");
        assert!(matches!(
            select_from(modes, " , ").unwrap_err(),
            ModeError::Empty(_)
        ));
        assert_eq!(select("all").unwrap().len(), all().len());
        assert_eq!(select("paper").unwrap()[0].name, "paper");
    }
}

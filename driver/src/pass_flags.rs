//! `sl1-driver build`'s flags for the pass's options, made from the one list
//! (`sl1_core::option_list::PASS_OPTIONS`): each option the driver gives as
//! a flag ([`BuildFlag::Same`] or [`BuildFlag::Renamed`]) becomes one, with
//! the option's help; what a command line gives is kept by the option's
//! name and read by [`PluginSettings::parse`], as the plugin reads its own.

use std::path::PathBuf;

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use sl1_core::option_list::{
    pass_option, BuildFlag, Hint, Kind, PassOption, PluginSettings, PASS_OPTIONS,
};

/// The pass's options a `build` command line gave, by the option's name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassFlags {
    given: Vec<(&'static str, String)>,
}

/// The options `build` has a flag for.
fn with_flags() -> impl Iterator<Item = &'static PassOption> {
    PASS_OPTIONS
        .iter()
        .filter(|o| !o.hidden && !matches!(o.build, BuildFlag::SetByDriver(_)))
}

/// How `build` spells option `name`: `--NAME`, or the driver's spelling.
fn long_name(option: &PassOption) -> &'static str {
    match option.build {
        BuildFlag::Renamed(other) => other,
        _ => option.name,
    }
}

/// How `sl1-driver build` spells the pass option `option` (its name in
/// `sl1_core::option_list`) with its value placeholder: in `build --help`
/// and in the hints the report's lines carry. An option the driver has no
/// flag for keeps the plugin's spelling.
pub fn build_flag(option: &str, value: Option<&str>) -> String {
    pass_option(option)
        .and_then(|o| o.build_spelling(value))
        .unwrap_or_else(|| Hint::plugin_flag(option, value))
}

fn arg(option: &'static PassOption) -> Arg {
    let arg = Arg::new(option.name)
        .long(long_name(option))
        .help(option.help_in(|name| build_flag(name, None)));
    let arg = match option.kind.placeholder() {
        Some(placeholder) => arg.value_name(placeholder).action(ArgAction::Set),
        None => arg.action(ArgAction::SetTrue),
    };
    match option.kind {
        Kind::Flag => arg,
        Kind::Number => arg.value_parser(clap::value_parser!(u32)),
        Kind::Bytes => arg.value_parser(clap::value_parser!(u64)),
        Kind::File => arg.value_parser(clap::value_parser!(PathBuf)),
    }
}

impl PassFlags {
    /// Whether option `name` was given (a flag given, or a value).
    pub fn given(&self, name: &str) -> bool {
        self.given.iter().any(|(n, _)| *n == name)
    }

    /// The settings these flags give, with the options the driver sets
    /// itself (`set`, as `NAME=VALUE`) added.
    pub fn settings(&self, set: &[(&str, &str)]) -> Result<PluginSettings, sl1_core::Error> {
        let given: String = self
            .given
            .iter()
            .map(|(n, v)| (*n, v.as_str()))
            .chain(set.iter().copied())
            .map(|(name, value)| format!("{name}={value}\n"))
            .collect();
        PluginSettings::parse(&given)
    }
}

impl FromArgMatches for PassFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = PassFlags::default();
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for option in with_flags() {
            let value = match option.kind {
                Kind::Flag => matches.get_flag(option.name).then(|| "true".to_string()),
                Kind::Number => matches.get_one::<u32>(option.name).map(u32::to_string),
                Kind::Bytes => matches.get_one::<u64>(option.name).map(u64::to_string),
                Kind::File => matches
                    .get_one::<PathBuf>(option.name)
                    .map(|p| p.display().to_string()),
            };
            if let Some(value) = value {
                self.given.retain(|(n, _)| *n != option.name);
                self.given.push((option.name, value));
            }
        }
        Ok(())
    }
}

impl Args for PassFlags {
    fn augment_args(command: Command) -> Command {
        with_flags().fold(command, |command, option| command.arg(arg(option)))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

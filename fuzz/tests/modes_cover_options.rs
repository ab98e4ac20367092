//! The fuzzed modes (`fuzz/modes.txt`) cover every option of
//! `sl1-driver build` that changes the generated code, and
//! docs/reliability.md lists exactly those modes: an option added to the
//! driver without a mode, or a mode the docs do not show, fails here.

use std::path::Path;

use clap::CommandFactory;
use sl1_driver::cli::Cli;
use sl1_fuzz::modes;

/// Options of `build` that do not change the device code of an IR input:
/// where files go, what is printed, where tools are, clang-only inputs,
/// the target (the GPU run is on sm_90), and the GPU profile, which only
/// sets line sizes and the shared-memory budget (covered by their own
/// options); the host side of a build (`-c`, an object, is an output kind
/// whose device code is the launch-sized mode's; libraries and host
/// compiler arguments); ptxas's arguments (after the PTX).
const NOT_CODE: &[&str] = &[
    "output",
    "emit",
    "-c",
    "-x",
    "-l",
    "-L",
    "host-arg",
    "link-arg",
    "host-compiler",
    "deps",
    "dep-file",
    "dep-target",
    "dep-phony",
    "ptxas-arg",
    "arch",
    "report",
    "print-report",
    "-I",
    "-D",
    "clang-arg",
    "no-nvcc-prelude",
    "cudart",
    "verbose",
    "cuda-path",
    "clang",
    "plugin",
    "gpu-profile",
    "help",
];

fn build_options() -> Vec<String> {
    let cli = Cli::command();
    let build = cli
        .get_subcommands()
        .find(|c| c.get_name() == "build")
        .expect("a build subcommand");
    build
        .get_arguments()
        .filter(|a| !a.is_positional())
        .map(|a| {
            a.get_long()
                .map(|l| l.to_string())
                .or_else(|| a.get_short().map(|s| format!("-{s}")))
                .unwrap_or_else(|| a.get_id().to_string())
        })
        .collect()
}

#[test]
fn every_option_that_changes_code_has_a_mode() {
    let options: Vec<String> = modes::all()
        .iter()
        .flat_map(|m| {
            m.options
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let covered = |name: &str| {
        if let Some(short) = name.strip_prefix('-') {
            // -O: an optimisation level given in some mode.
            options.iter().any(|o| o.starts_with(&format!("-{short}")))
        } else {
            options.iter().any(|o| o == &format!("--{name}"))
        }
    };
    let missing: Vec<String> = build_options()
        .into_iter()
        .filter(|o| !NOT_CODE.contains(&o.as_str()) && !covered(o))
        .collect();
    assert!(
        missing.is_empty(),
        "sl1-driver build options no mode of fuzz/modes.txt uses: {missing:?}"
    );
}

#[test]
fn the_docs_list_every_mode() {
    let docs = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/reliability.md"),
    )
    .unwrap();
    let rows: Vec<(String, String)> = docs
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            // | `name` | `options` | ... |
            let name = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            let options = cells.get(2)?.trim_matches('`');
            modes::all()
                .iter()
                .any(|m| m.name == name)
                .then(|| (name.to_string(), options.to_string()))
        })
        .collect();
    for mode in modes::all() {
        let row = rows.iter().find(|(n, _)| n == &mode.name);
        let Some((_, options)) = row else {
            panic!("docs/reliability.md has no row for mode `{}`", mode.name);
        };
        let shown = if options == "(none)" {
            ""
        } else {
            options.as_str()
        };
        assert_eq!(
            shown, mode.options,
            "mode `{}`'s options in the docs",
            mode.name
        );
    }
}

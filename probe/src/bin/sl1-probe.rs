//! `sl1-probe`: `sl1-driver probe` without LLVM, for GPU machines that have
//! none (the app-suite bundle carries it).

use std::process::ExitCode;

use clap::Parser;
use sl1_probe::cli::{self, ProbeArgs};

/// Measures the GPU's memory hierarchy and writes a GPU profile for S-L1.
#[derive(Parser)]
#[command(name = "sl1-probe", version)]
struct Cli {
    #[command(flatten)]
    args: ProbeArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli::main(&cli.args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("sl1-probe: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

//! `sl1-nvcc`: nvcc's command line, built by `sl1-driver build` with S-L1
//! (`nvcc_args` translates it). For a project that builds with nvcc today:
//! `make NVCC=sl1-nvcc`, or `CUDACXX`-style variables naming it.

use std::process::{Command, ExitCode};

use sl1_driver::nvcc_args::translate;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let translated = match translate(&args) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("sl1-nvcc: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if translated.help {
        print!("{}", sl1_driver::nvcc_flags::help_text());
        return ExitCode::SUCCESS;
    }
    if translated.version {
        println!(
            "sl1-nvcc {} (S-L1's nvcc-style front end to sl1-driver build)",
            env!("CARGO_PKG_VERSION")
        );
        if translated.build.is_empty() {
            return ExitCode::SUCCESS;
        }
    }
    for option in &translated.ignored {
        eprintln!("sl1-nvcc: note: `{option}` has no meaning here; ignored");
    }
    let driver = std::env::current_exe()
        .map(|exe| exe.with_file_name("sl1-driver"))
        .unwrap_or_else(|_| "sl1-driver".into());
    match Command::new(&driver).args(&translated.build).status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => ExitCode::from(status.code().unwrap_or(1).clamp(1, 255) as u8),
        Err(e) => {
            eprintln!(
                "sl1-nvcc: error: cannot run {} ({e}); it belongs beside sl1-nvcc",
                driver.display()
            );
            ExitCode::FAILURE
        }
    }
}

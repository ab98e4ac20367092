//! Runs the external tools of a build, echoing them with -v.

use std::path::Path;
use std::process::Command;

use crate::error::DriverError;

pub struct Runner {
    pub verbose: bool,
}

impl Runner {
    /// Runs `cmd`; its output goes straight to the user. A failure names the
    /// input file and the tool.
    pub fn run(&self, cmd: &mut Command, input: &Path) -> Result<(), DriverError> {
        let program = cmd.get_program().to_string_lossy().into_owned();
        if self.verbose {
            let words: Vec<String> = std::iter::once(program.clone())
                .chain(cmd.get_args().map(|a| a.to_string_lossy().into_owned()))
                .collect();
            eprintln!(
                "+ {}",
                shlex::try_join(words.iter().map(String::as_str))
                    .unwrap_or_else(|_| words.join(" "))
            );
        }
        let status = cmd.status().map_err(|e| DriverError::PhaseFailed {
            path: input.to_path_buf(),
            tool: program.clone(),
            status: format!("could not start: {e}"),
        })?;
        if status.success() {
            Ok(())
        } else {
            Err(DriverError::PhaseFailed {
                path: input.to_path_buf(),
                tool: Path::new(&program)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or(program),
                status: status.to_string(),
            })
        }
    }
}

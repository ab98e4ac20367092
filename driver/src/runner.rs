//! Runs the external tools of a build, echoing them with -v.

use std::path::Path;
use std::process::{Command, ExitStatus};

use crate::error::DriverError;

pub struct Runner {
    pub verbose: bool,
}

impl Runner {
    /// Runs `cmd`; its output goes straight to the user. A failure names the
    /// input file and the tool.
    pub fn run(&self, cmd: &mut Command, input: &Path) -> Result<(), DriverError> {
        let program = self.echo(cmd);
        let status = cmd.status().map_err(|e| DriverError::PhaseFailed {
            path: input.to_path_buf(),
            tool: program.clone(),
            status: format!("could not start: {e}"),
        })?;
        check(status, program, input)
    }

    /// Runs `cmd` and returns what it wrote to stderr, for the build to
    /// read (ptxas's `-v`); its stdout goes to the user, and so does its
    /// stderr when it fails.
    pub fn run_reading_stderr(
        &self,
        cmd: &mut Command,
        input: &Path,
    ) -> Result<String, DriverError> {
        let program = self.echo(cmd);
        let output = cmd
            .stdout(std::process::Stdio::inherit())
            .output()
            .map_err(|e| DriverError::PhaseFailed {
                path: input.to_path_buf(),
                tool: program.clone(),
                status: format!("could not start: {e}"),
            })?;
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        if !output.status.success() {
            eprint!("{stderr}");
        }
        check(output.status, program, input)?;
        Ok(stderr)
    }

    /// Prints `cmd` under -v; returns its program.
    fn echo(&self, cmd: &Command) -> String {
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
        program
    }
}

/// A failure of `program` on `input`, named by its file name.
fn check(status: ExitStatus, program: String, input: &Path) -> Result<(), DriverError> {
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

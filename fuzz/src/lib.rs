//! Differential fuzzing of S-L1 (issue 22): each generated kernel
//! (`sl1-kernelgen`) built plain and in every documented mode of
//! `sl1-driver build` ([`modes`]), run on the same inputs ([`case`]); every
//! buffer must come back byte for byte the same.
//!
//! A run ([`run`]): builder threads build seeds in memory through the
//! driver's library ([`build`]) and assemble them with ptxas ([`ptxas`]);
//! one GPU thread loads the cubins, runs and compares them ([`gpu_run`],
//! the launches of a case in [`launches`]), writes findings ([`findings`])
//! and keeps the totals ([`tally`]), with progress ([`progress`]) and a
//! clean stop on signals or a time limit ([`stop`]); a run may build only
//! the seeds of some shapes ([`shapes`]).

pub mod build;
pub mod case;
pub mod cpu;
pub mod findings;
pub mod gpu_run;
pub mod launches;
pub mod modes;
pub mod progress;
pub mod ptxas;
pub mod run;
pub mod shapes;
pub mod stop;
pub mod tally;

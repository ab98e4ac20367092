//! `sl1-corpus`: real CUDA programs nobody here wrote (a HeCBench checkout,
//! `src/<name>-cuda/`), built with S-L1 and without it, so that what S-L1
//! cannot build, or builds wrong, shows up on code it was not tuned on.
//! The builds run here (`build`); the executables link the CUDA runtime
//! dynamically, so that many fit in one carry to a GPU machine, where
//! `run` runs both builds of each program and compares them.

pub mod build;
pub mod makefile;
pub mod nvcc;
pub mod outcome;
pub mod program;
pub mod run;
pub mod summary;

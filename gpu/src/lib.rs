//! S-L1's app suite on the GPU: each app brings deterministic inputs that look
//! like real data, a CPU reference and a check (`harm` adds the do-no-harm
//! kernels: common CUDA patterns the apps do not cover, run the same way);
//! `device` launches the kernels of every build (PTX) through the CUDA driver
//! API and times them; `floor` says how far each time is from what the
//! memory system allows; `exe` runs the same kernels as executables built
//! as users build them; `plots` draws the results as the paper's figures.

pub mod apps;
pub mod device;
pub mod exe;
pub mod floor;
pub mod harm;
pub mod inputs;
pub mod line_buffer;
pub mod plots;
pub mod results;
pub mod stats;
pub mod suites;
pub mod sweep;

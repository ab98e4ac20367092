//! What S-L1's crates share without LLVM: the pass's options, declared
//! once with the plugin's and the driver's spelling of each (`options`,
//! `option_list`), the part of a GPU profile the pass reads (`profile`)
//! and the memory rates its gain bound takes (`rates`),
//! the statistics build's counter layout (`stats`), and the S-L1 runtime's
//! account of an executable's launches (`launches`).

pub mod carveout;
pub mod error;
pub mod launches;
pub mod option_list;
pub mod options;
pub mod profile;
pub mod rates;
pub mod report;
pub mod stats;

pub use error::Error;
pub use options::Options;

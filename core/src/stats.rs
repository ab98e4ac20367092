//! The layout of the statistics build's counters (`Options::stats`): per
//! data structure, `COUNTERS` little-endian u64 in the order of [`Counter`],
//! indexed by the structure's id in the report, in the global `symbol`
//! names. The pass writes them, the GPU harness reads them.

/// The counters of one structure, in memory order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    SimulatedHits = 0,
    SimulatedMisses = 1,
    Hits = 2,
    Misses = 3,
    ThreadsCaching = 4,
    ThreadsDeciding = 5,
}

/// Counters per data structure.
pub const COUNTERS: usize = 6;

/// The name of a kernel's statistics global.
pub fn symbol(kernel: &str) -> String {
    format!("sl1_stats_{kernel}")
}

/// The name of a kernel's global of alias-check path counters
/// (`report::AliasPathCounters`).
pub fn alias_paths_symbol(kernel: &str) -> String {
    format!("sl1_alias_paths_{kernel}")
}

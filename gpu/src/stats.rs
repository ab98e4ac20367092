//! Reading the counters of S-L1's statistics build (`sl1-driver build
//! --stats`): where they are (the build's JSON report names the global and the
//! data structures) and what they say.

use sl1_core::report::{AliasPathCounters, KernelReport, Report};
use thiserror::Error;

use crate::results::{AliasPaths, StructureStats};

/// u64 counters per data structure, in the order the pass writes them
/// (`sl1_core::stats::Counter`).
pub use sl1_core::stats::COUNTERS;

#[derive(Debug, Error, PartialEq)]
pub enum StatsError {
    #[error("the S-L1 report is not JSON: {0}")]
    Json(String),
    #[error("the S-L1 report has no kernel `{0}`")]
    NoKernel(String),
    #[error("kernel `{kernel}`: {bytes} bytes of counters, expected {expected}")]
    Size {
        kernel: String,
        bytes: usize,
        expected: usize,
    },
}

/// Where one kernel's counters are and which argument each row counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatsLayout {
    /// The global the counters live in.
    pub symbol: String,
    /// Argument names by data structure id.
    pub arguments: Vec<String>,
}

impl StatsLayout {
    /// The layout of `kernel` from an S-L1 report; `None` when that build
    /// does not count (no statistics global).
    pub fn from_report(report: &str, kernel: &str) -> Result<Option<StatsLayout>, StatsError> {
        let k = kernel_of(report, kernel)?;
        let Some(symbol) = &k.transform.stats_symbol else {
            return Ok(None);
        };
        let mut rows: Vec<(u32, String)> = k
            .data_structures
            .iter()
            .map(|d| (d.id, d.argument.clone()))
            .collect();
        rows.sort();
        Ok(Some(StatsLayout {
            symbol: symbol.clone(),
            arguments: rows.into_iter().map(|(_, name)| name).collect(),
        }))
    }

    /// Bytes of the counters global.
    pub fn bytes(&self) -> usize {
        self.arguments.len().max(1) * COUNTERS * 8
    }

    /// The counters read back from the GPU, per data structure.
    pub fn decode(&self, kernel: &str, bytes: &[u8]) -> Result<Vec<StructureStats>, StatsError> {
        if bytes.len() != self.bytes() {
            return Err(StatsError::Size {
                kernel: kernel.into(),
                bytes: bytes.len(),
                expected: self.bytes(),
            });
        }
        let words: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
            .collect();
        Ok(self
            .arguments
            .iter()
            .zip(words.chunks_exact(COUNTERS))
            .map(|(argument, c)| StructureStats {
                argument: argument.clone(),
                simulated_hits: c[0],
                simulated_misses: c[1],
                hits: c[2],
                misses: c[3],
                threads_caching: c[4],
                threads_deciding: c[5],
            })
            .collect())
    }
}

/// Where `kernel`'s alias-check path counters are, from an S-L1 report;
/// `None` when that build does not count them.
pub fn alias_paths_layout(
    report: &str,
    kernel: &str,
) -> Result<Option<AliasPathCounters>, StatsError> {
    Ok(kernel_of(report, kernel)?.alias_paths)
}

/// `kernel`'s part of an S-L1 report (JSON text).
fn kernel_of(report: &str, kernel: &str) -> Result<KernelReport, StatsError> {
    let report: Report =
        serde_json::from_str(report).map_err(|e| StatsError::Json(e.to_string()))?;
    report
        .kernels
        .into_iter()
        .find(|k| k.name == kernel)
        .ok_or_else(|| StatsError::NoKernel(kernel.into()))
}

/// The alias-check path counters read back from the GPU, per check.
pub fn decode_alias_paths(
    layout: &AliasPathCounters,
    kernel: &str,
    bytes: &[u8],
) -> Result<Vec<AliasPaths>, StatsError> {
    let expected = layout.checks * 2 * 8;
    if bytes.len() != expected {
        return Err(StatsError::Size {
            kernel: kernel.into(),
            bytes: bytes.len(),
            expected,
        });
    }
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().expect("8 bytes"));
    Ok(bytes
        .chunks_exact(16)
        .map(|c| AliasPaths {
            apart: word(&c[..8]),
            overlapping: word(&c[8..]),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    use sl1_core::report::{DataStructureReport, KernelReport, Mode};

    /// A report with kernels `other` (no statistics) and `pvc` (counting
    /// `weight` and `log`, ids 1 and 0), as the pass writes it.
    fn report() -> String {
        let structure = |id: u32, argument: &str| DataStructureReport {
            id,
            argument: argument.into(),
            arg_index: id,
            restrict: true,
            mode: Mode::ReadWrite,
            loads: 1,
            stores: 1,
            atomics: 0,
            ranges: 0,
            widths: vec![4],
            volatile: 0,
            in_loops: 2,
        };
        let mut pvc = KernelReport {
            name: "pvc".into(),
            data_structures: vec![structure(1, "weight"), structure(0, "log")],
            ..KernelReport::default()
        };
        pvc.transform.stats_symbol = Some("sl1_stats_pvc".into());
        let other = KernelReport {
            name: "other".into(),
            ..KernelReport::default()
        };
        serde_json::to_string(&Report {
            kernels: vec![other, pvc],
            ..Report::default()
        })
        .unwrap()
    }

    #[test]
    fn layout_names_the_global_and_the_arguments_in_id_order() {
        let report = report();
        let report = report.as_str();
        let layout = StatsLayout::from_report(report, "pvc").unwrap().unwrap();
        assert_eq!(layout.symbol, "sl1_stats_pvc");
        assert_eq!(layout.arguments, ["log", "weight"]);
        assert_eq!(layout.bytes(), 2 * 6 * 8);
        assert_eq!(StatsLayout::from_report(report, "other").unwrap(), None);
        assert_eq!(
            StatsLayout::from_report(report, "nope").unwrap_err(),
            StatsError::NoKernel("nope".into())
        );
        assert!(StatsLayout::from_report("{", "pvc").is_err());
    }

    #[test]
    fn counters_decode_per_structure() {
        let layout = StatsLayout::from_report(&report(), "pvc").unwrap().unwrap();
        let words: Vec<u64> = (1..=12).collect();
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let stats = layout.decode("pvc", &bytes).unwrap();
        assert_eq!(stats[0].argument, "log");
        assert_eq!((stats[0].simulated_hits, stats[0].threads_deciding), (1, 6));
        assert_eq!((stats[1].hits, stats[1].misses), (9, 10));
        assert!(layout.decode("pvc", &bytes[8..]).is_err());
    }

    #[test]
    fn alias_paths_decode_per_check() {
        let mut report: Report = serde_json::from_str(&report()).unwrap();
        report.kernels[1].alias_paths = Some(AliasPathCounters {
            symbol: "sl1_alias_paths_pvc".into(),
            checks: 2,
        });
        let report = serde_json::to_string(&report).unwrap();
        assert_eq!(alias_paths_layout(&report, "other").unwrap(), None);
        let layout = alias_paths_layout(&report, "pvc").unwrap().unwrap();
        let bytes: Vec<u8> = [5u64, 0, 1, 7]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let paths = decode_alias_paths(&layout, "pvc", &bytes).unwrap();
        assert_eq!(
            paths,
            [
                AliasPaths {
                    apart: 5,
                    overlapping: 0
                },
                AliasPaths {
                    apart: 1,
                    overlapping: 7
                }
            ]
        );
        assert!(decode_alias_paths(&layout, "pvc", &bytes[16..]).is_err());
    }
}

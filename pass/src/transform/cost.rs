//! What a structure's lines can gain at most: the traffic they save.
//!
//! A thread-private line pays by what the hardware L1 wastes when it
//! thrashes: each access of a lane far from its neighbours then brings its
//! own 32 B sector from L2, however few of its bytes the access uses, and
//! the line brings each byte once. Whatever the cache does, device memory
//! must still deliver every byte the stream reads and take every byte it
//! writes. So the direct path can be slower than the cached one only where
//! its L2 traffic takes longer at the L2's bandwidth than the stream's own
//! bytes take at device memory's:
//!
//! ```text
//! gain <= max(1, (L2 bytes of a thrashing L1 / L2 rate) / (device bytes / device rate))
//! ```
//!
//! per iteration of the loop. A stream of 16 B accesses (`float4`) moves
//! 32 B from L2 for 16 B of device memory: 2x the bytes, under the H100's
//! 2.5x bandwidth ratio (its rates, the default), so the direct path is bound by device memory like
//! the cached one, at most 1.0x to gain (measured: `vec16` cached 0.166 ms
//! at 132x512, lanes far apart, against 0.108 ms at the best launch
//! without S-L1, docs/results/2026-11-25-h100-harm-gain-bound.json.gz; that
//! launch itself, uncached, takes 0.378 ms: the bound judges a kernel at
//! its best launch). A
//! byte stream moves 32 B for 1 B: up to 12.6x (`bytes_u8` 9.6x). A stream
//! assumed to come from device memory: one small enough to stay in L2 could
//! gain more than this bound says, and is left direct all the same.
//!
//! The bound is an upper bound: tag checks, fills and the line buffer's
//! share of the SM's memory still cost, which the hit-rate bar
//! (`predict::MIN_HIT_PERCENT`) and the lane test (`lanes`) weigh.

use std::collections::BTreeSet;

use crate::analysis::accesses::AccessKind;

use super::reports::DirectReason;

/// Bytes of the unit the L1 moves to and from L2 (the probe's L1 fill unit
/// on the H100, docs/probe.md).
pub const SECTOR_BYTES: u64 = 32;

/// The bandwidths the bound compares: the GPU profile's, else the H100's
/// (`sl1_core::rates`; `Options::memory_rates`).
pub use sl1_core::rates::MemoryRates;

/// A structure is cached only where its lines can gain at least this much:
/// below it the checks and fills cost more than the bound leaves.
pub const MIN_GAIN: f64 = 1.1;

/// One access of a structure in one iteration of its loop, `offset` bytes
/// from the iteration's first access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    pub kind: AccessKind,
    pub offset: i64,
    pub bytes: u64,
}

/// Whether `sites`, one iteration's accesses of a structure that moves
/// `stride` bytes forward each iteration, only read or only write and touch
/// each byte they pass once: the structure streams through its lines, each
/// used whole, and its read lines come from the stage and its written ones
/// go back whole.
pub fn streams_whole(stride: i64, sites: &[Site]) -> bool {
    let Some(first) = sites.iter().map(|s| s.offset).min() else {
        return false;
    };
    if stride <= 0
        || sites
            .iter()
            .any(|s| s.kind.writes() != sites[0].kind.writes())
    {
        return false;
    }
    let mut spans: Vec<(i64, i64)> = sites
        .iter()
        .map(|s| (s.offset - first, s.offset - first + s.bytes as i64))
        .collect();
    spans.sort_unstable();
    let mut end = 0;
    for (from, to) in spans {
        if from != end {
            return false;
        }
        end = to;
    }
    end == stride
}

/// Bytes moved per iteration by each path, and the bound they give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GainBound {
    /// Sectors a thrashing L1 moves between L2 and the SM.
    pub l2_bytes: u64,
    /// Bytes device memory delivers and takes (read and written once).
    pub device_bytes: u64,
    /// At most this many times faster through lines.
    pub gain: f64,
}

impl GainBound {
    /// Whether the bound clears the margin.
    pub fn pays(&self) -> bool {
        self.gain >= MIN_GAIN
    }

    /// The report's reason for a bound that does not clear the margin.
    pub fn direct_reason(&self, rates: &MemoryRates) -> DirectReason {
        DirectReason::LittleGain {
            l2_bytes: self.l2_bytes,
            device_bytes: self.device_bytes,
            l2_tb_per_s: rates.l2_bytes_per_s() / 1e12,
            device_tb_per_s: rates.device_bytes_per_s() / 1e12,
            gain: self.gain,
            min_gain: MIN_GAIN,
        }
    }
}

/// Bytes of the distinct sectors that `sites` touch in one iteration, the
/// lowest at a sector's start: accesses of one iteration into one sector
/// (an `int4` split into four words) share its fetch; between iterations a
/// thrashing L1 has lost it.
fn sector_bytes(sites: &[&Site]) -> u64 {
    let Some(low) = sites.iter().map(|s| s.offset).min() else {
        return 0;
    };
    let sector = SECTOR_BYTES as i64;
    let touched: BTreeSet<i64> = sites
        .iter()
        .flat_map(|s| {
            let first = (s.offset - low) / sector;
            let last = (s.offset - low + s.bytes.max(1) as i64 - 1) / sector;
            first..=last
        })
        .collect();
    touched.len() as u64 * SECTOR_BYTES
}

/// The bound for a structure whose `sites` move by `stride` bytes per
/// iteration; `None` for addresses that stay put (stride 0: the L2 keeps
/// them, nothing bounds the gain from device memory).
pub fn gain_bound(stride: i64, sites: &[Site], rates: &MemoryRates) -> Option<GainBound> {
    let stride = stride.unsigned_abs();
    if stride == 0 || sites.is_empty() {
        return None;
    }
    // A thrashing L1 fetches (or writes through) whole sectors.
    let l2_of = |writes: bool| {
        let of_kind: Vec<&Site> = sites.iter().filter(|s| s.kind.writes() == writes).collect();
        sector_bytes(&of_kind)
    };
    let (read_l2, write_l2) = (l2_of(false), l2_of(true));
    // Device memory moves the stream's new bytes once each way, but no more
    // than the sectors the accesses touch (a stride past them skips bytes).
    let device_bytes = [read_l2, write_l2]
        .into_iter()
        .filter(|&b| b > 0)
        .map(|b| stride.min(b))
        .sum::<u64>();
    let l2_bytes = read_l2 + write_l2;
    let l2_time = l2_bytes as f64 / rates.l2_bytes_per_s();
    let device_time = device_bytes as f64 / rates.device_bytes_per_s();
    Some(GainBound {
        l2_bytes,
        device_bytes,
        gain: (l2_time / device_time).max(1.0),
    })
}

/// Threads of a warp: the requests a profiler counts are warp-wide.
const WARP: u64 = 32;
/// Shared-memory banks, each 4 B wide.
const BANKS: u64 = 32;

pub use sl1_core::report::transform::{LineSectors, SectorFigures};

/// The figures for `sites` moving `stride` bytes per iteration, through
/// lines of `line_sizes` bytes each followed by `pad` bytes; None without a
/// layout.
pub fn sector_figures(
    stride: i64,
    sites: &[Site],
    line_sizes: &[u32],
    pad: u32,
) -> Option<SectorFigures> {
    if sites.is_empty() || line_sizes.is_empty() {
        return None;
    }
    let sectors_of = |bytes: u64| bytes.max(1).div_ceil(SECTOR_BYTES);
    let direct: u64 = sites.iter().map(|s| WARP * sectors_of(s.bytes)).sum();
    let ideal: u64 = sites.iter().map(|s| sectors_of(WARP * s.bytes)).sum();
    let kinds = [false, true]
        .iter()
        .filter(|&&w| sites.iter().any(|s| s.kind.writes() == w))
        .count() as u64;
    let stride = stride.unsigned_abs();
    let through_lines = line_sizes
        .iter()
        .map(|&line| {
            let line64 = u64::from(line);
            // A line lasts line/stride iterations (at least one); then each
            // lane fills it (and writes it back) whole.
            let (sectors, iterations) = match line64.checked_div(stride) {
                None => (0, 1),
                Some(lasts) => (WARP * sectors_of(line64) * kinds, lasts.max(1)),
            };
            LineSectors {
                line,
                sectors: sectors as u32,
                iterations: iterations as u32,
            }
        })
        .collect();
    // Lane t's line starts t pitches into the buffer (slot-major).
    let bank_ways = line_sizes
        .iter()
        .flat_map(|&line| {
            let pitch = u64::from(line + pad);
            sites.iter().map(move |s| {
                let offset = s.offset.rem_euclid(i64::from(line)) as u64;
                let words: BTreeSet<u64> = (0..WARP).map(|t| (t * pitch + offset) / 4).collect();
                (0..BANKS)
                    .map(|b| words.iter().filter(|w| *w % BANKS == b).count())
                    .max()
                    .unwrap_or(0) as u32
            })
        })
        .max()
        .unwrap_or(0);
    Some(SectorFigures {
        requests: sites.len() as u32,
        direct_sectors: direct as u32,
        ideal_sectors: ideal as u32,
        through_lines,
        bank_ways,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(kind: AccessKind, offset: i64, bytes: u64) -> Site {
        Site {
            kind,
            offset,
            bytes,
        }
    }
    fn load(bytes: u64) -> Site {
        at(AccessKind::Load, 0, bytes)
    }
    fn store(bytes: u64) -> Site {
        at(AccessKind::Store, 0, bytes)
    }
    /// `n` loads of `bytes` each, side by side.
    fn fields(n: i64, bytes: u64) -> Vec<Site> {
        (0..n)
            .map(|i| at(AccessKind::Load, i * bytes as i64, bytes))
            .collect()
    }
    fn bound(stride: i64, sites: &[Site]) -> GainBound {
        gain_bound(stride, sites, &sl1_core::rates::h100()).unwrap()
    }

    #[test]
    fn narrow_streams_can_gain_much() {
        let bytes = bound(1, &[load(1)]);
        assert_eq!((bytes.l2_bytes, bytes.device_bytes), (32, 1));
        assert!((bytes.gain - 12.55).abs() < 0.01, "{bytes:?}");
        assert!(bound(4, &[load(4), store(4)]).gain > 3.0);
        assert!(bound(-4, &[load(4)]).pays());
    }

    #[test]
    fn sixteen_byte_streams_cannot_gain() {
        let vec16 = bound(16, &[load(16)]);
        assert_eq!((vec16.l2_bytes, vec16.device_bytes), (32, 16));
        assert_eq!(vec16.gain, 1.0);
        assert!(!vec16.pays());
        assert!(!bound(16, &[load(16), store(16)]).pays());
        // An int4 that clang splits into four words: one sector.
        let words = bound(16, &fields(4, 4));
        assert_eq!((words.l2_bytes, words.device_bytes), (32, 16));
        assert!(!words.pays());
        // Two int4 fields of one 32 B struct: one sector for 32 B.
        assert!(!bound(32, &fields(2, 16)).pays());
    }

    #[test]
    fn eight_byte_streams_and_struct_fields_may_gain() {
        assert!((bound(8, &[load(8)]).gain - 1.57).abs() < 0.01);
        // Three fields of a 12 B struct: a sector for 12 B.
        let aos = bound(12, &fields(3, 4));
        assert_eq!((aos.l2_bytes, aos.device_bytes), (32, 12));
        assert!((aos.gain - 1.05).abs() < 0.01, "{aos:?}");
        // Two rows far apart, a word each: two sectors for 8 B.
        let rows = [at(AccessKind::Load, 0, 4), at(AccessKind::Load, 4096, 4)];
        assert!(bound(4, &rows).gain > 6.0);
    }

    #[test]
    fn strides_past_the_sectors_move_only_what_is_touched() {
        // One 4 B field of a 64 B struct: a sector from L2, a sector from
        // device memory.
        let sparse = bound(64, &[load(4)]);
        assert_eq!(sparse.device_bytes, 32);
        assert!(!sparse.pays());
    }

    #[test]
    fn addresses_that_stay_put_have_no_bound() {
        assert_eq!(gain_bound(0, &[load(16)], &sl1_core::rates::h100()), None);
    }

    #[test]
    fn a_byte_stream_counts_as_a_profiler_would() {
        // One byte per lane and iteration: 32 sectors per request direct,
        // 1 side by side; 32 B lines fill a sector per lane every 32
        // iterations; 32 + 4 B pitches put every lane in its own bank.
        let f = sector_figures(1, &[load(1)], &[16, 32], 4).unwrap();
        assert_eq!((f.requests, f.direct_sectors, f.ideal_sectors), (1, 32, 1));
        assert_eq!(
            f.through_lines,
            [
                LineSectors {
                    line: 16,
                    sectors: 32,
                    iterations: 16
                },
                LineSectors {
                    line: 32,
                    sectors: 32,
                    iterations: 32
                },
            ]
        );
        assert_eq!(f.bank_ways, 1);
        let text = f.describe();
        assert!(
            text.contains("32 direct (31 excessive over the 1"),
            "{text}"
        );
        assert!(text.contains("1.00 through 32 B lines"), "{text}");
        assert!(text.contains("free of bank conflicts"), "{text}");
        // Without padding, 32 B pitches put the lanes' words in banks 0, 8,
        // 16 and 24 only: eight to a bank.
        let unpadded = sector_figures(1, &[load(1)], &[32], 0).unwrap();
        assert_eq!(unpadded.bank_ways, 8);
        assert!(unpadded.describe().contains("8-way bank conflicts"));
    }

    #[test]
    fn reads_and_writes_fill_and_write_back() {
        let f = sector_figures(4, &[load(4), store(4)], &[16], 4).unwrap();
        assert_eq!((f.requests, f.direct_sectors, f.ideal_sectors), (2, 64, 8));
        // A 16 B line lasts 4 iterations: a fill and a write-back per lane.
        assert_eq!(
            f.through_lines,
            [LineSectors {
                line: 16,
                sectors: 64,
                iterations: 4
            }]
        );
        assert_eq!(sector_figures(4, &[], &[16], 4), None);
    }

    #[test]
    fn the_reason_names_the_numbers() {
        let why = bound(16, &[load(16)])
            .direct_reason(&sl1_core::rates::h100())
            .to_string();
        assert!(why.contains("32 B from L2 for 16 B"), "{why}");
        assert!(why.contains("at most 1.00x"), "{why}");
    }

    #[test]
    fn a_stream_reads_or_writes_each_byte_it_passes_once() {
        // out[i] = ..., and tx[2i], tx[2i + 1] read side by side.
        assert!(streams_whole(1, &[store(1)]));
        assert!(streams_whole(8, &fields(2, 4)));
        assert!(streams_whole(
            8,
            &[at(AccessKind::Load, 4, 4), at(AccessKind::Load, 0, 4)]
        ));
        // y[i] = a * x[i] + y[i]: read and written.
        assert!(!streams_whole(4, &[load(4), store(4)]));
        // in[i - 1] + in[i] + in[i + 1]: bytes read again next iteration.
        assert!(!streams_whole(4, &fields(3, 4)));
        // A gap (every other element), backwards, or nothing at all.
        assert!(!streams_whole(8, &[load(4)]));
        assert!(!streams_whole(-4, &[load(4)]));
        assert!(!streams_whole(4, &[]));
    }
}

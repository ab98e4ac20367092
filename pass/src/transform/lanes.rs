//! Structures the warp's own coalescing serves. A thread-private line pays
//! where the hardware's lines do not: lanes far apart each pull their own
//! 128 B L1 line, and resident threads outgrow the L1. Where a warp's lanes
//! access a structure less than an L1 line apart (per-thread chunks of a few
//! elements: a grid of two thousand blocks), their loads and stores share
//! lines and sectors, the L1 keeps what the next iteration reads, and a
//! per-thread line only adds the cache's work. Measured on the H100
//! (2026-11-25, 256 MiB, do-no-harm suite, docs/benchmarks.md): at
//! 2112x1024 threads the lanes of `soa` lie 25 B apart and S-L1 ran 0.80x
//! of the build without it (0.158 against 0.127 ms at each build's best),
//! `vec16` 62 B apart 0.87x, `aos` 0.93x, `stencil3` 0.95x; with longer
//! chunks the same kernels gain from the cache (at 132x256 threads, `soa`'s
//! lanes 1.6 KB apart: 0.158 against 0.336 ms; `vec16` at 132x512: 0.164
//! against 0.379 ms).
//!
//! Two kinds of structure gain whatever the lanes' distance, and a loop
//! with one of them is not tested at all: those a thread reads and writes
//! (a global store does not keep its line in the L1, so the next read goes
//! to L2: `saxpy`'s `y` 2.5x at 62 B) and those accessed in pieces under
//! 4 B (a request per byte or half-word: `bytes_u8` 9.6x, `halves_u16`
//! 4.9x, `upper`, `wc`). Arguments without restrict are tested as a group
//! (their lines are looked up together): their loop is declined only when
//! all are close. Loops with a block barrier are not tested (their version
//! is the block's).
//!
//! Where the IR gives the distance (`analysis::lane_step`: every lane
//! reading `xx[j]` is 0 B apart, `keys + 16 * i` words 64 B), the test is
//! settled at compile time: close structures are left direct, and a loop
//! with nothing left stays as it was, without the buffer and registers a
//! test declined at run time still costs (HeCBench `haccmk` 0.69x and
//! `jenkins-hash` 0.80x of the build without S-L1 on the H100, 2026-11-25,
//! both declined at run time). Otherwise it runs once per entry to the
//! loop, in its preheader, which both the monitoring slice and the decision
//! follow: each lane computes the structure's address at the loop's entry
//! from its affine form, and compares it with its neighbour's
//! (`shfl.sync.bfly`), where the neighbour is there.

use std::collections::BTreeMap;

use crate::analysis::accesses::{Access, AccessKind};
use crate::analysis::affine::{AffineAddress, LoopScope};
use crate::analysis::lane_step::LaneSteps;
use crate::analysis::KernelAnalysis;

use super::cost::SECTOR_BYTES;
use super::reports::DirectReason;

/// Bytes of a hardware L1 line: lanes closer than this share lines.
pub const HARDWARE_LINE_BYTES: i64 = 128;

/// Accesses narrower than this gain from lines whatever the lanes do.
const NARROW_BYTES: u64 = 4;

/// A main loop's accesses by structure.
fn by_structure<'a, 'm>(
    k: &KernelAnalysis<'m>,
    in_loop: &[&'a Access<'m>],
) -> BTreeMap<u32, Vec<&'a Access<'m>>> {
    let mut by_structure: BTreeMap<u32, Vec<&Access<'m>>> = BTreeMap::new();
    for a in in_loop {
        if let Some(ds) = k.data_structure_of(a) {
            by_structure.entry(ds.id).or_default().push(a);
        }
    }
    by_structure
}

/// A structure a thread reads and writes, or accesses in pieces under 4 B:
/// its lines gain whatever its lanes' distance.
fn gains_anyway(accesses: &[&Access<'_>]) -> bool {
    let loads = accesses.iter().any(|a| a.kind == AccessKind::Load);
    let stores = accesses.iter().any(|a| a.kind == AccessKind::Store);
    (loads && stores) || accesses.iter().any(|a| a.size < NARROW_BYTES)
}

/// The structures of a main loop under the lane test, with their accesses
/// in the loop.
fn tested_structures<'a, 'm>(
    k: &KernelAnalysis<'m>,
    in_loop: &[&'a Access<'m>],
) -> BTreeMap<u32, Vec<&'a Access<'m>>> {
    let mut by_structure = by_structure(k, in_loop);
    // Beside a structure that gains anyway, the others ride along as before:
    // its lines take shared memory from the L1 they would be left to
    // (`saxpy`'s `x` direct beside a cached `y`: 2.37x against 2.50x).
    if by_structure.values().any(|a| gains_anyway(a)) {
        return BTreeMap::new();
    }
    by_structure.retain(|_, accesses| !accesses.iter().any(|a| a.kind.is_atomic()));
    by_structure
}

/// The structures of a main loop whose warp's lanes all fall in one
/// sector at every access (`lane_step`: every lane reading `x[j]` is 0 B
/// apart), with that distance: one request serves the warp, and a line per
/// thread would fill the same bytes once for every lane. Unlike the lane
/// test, whatever the loop's other structures are: beside a structure that
/// gains anyway, and in an aliased group whose other members do pay (a
/// row-per-thread product without restrict reading a broadcast vector ran
/// 2.2x slower than the build without S-L1 with the vector cached, H200,
/// 2026-11-28). Not structures that gain anyway themselves, nor atomics.
pub fn in_one_sector<'m>(k: &KernelAnalysis<'m>, in_loop: &[&Access<'m>]) -> BTreeMap<u32, i64> {
    let mut steps = LaneSteps::new(k);
    by_structure(k, in_loop)
        .into_iter()
        .filter(|(_, accesses)| {
            !gains_anyway(accesses) && !accesses.iter().any(|a| a.kind.is_atomic())
        })
        .filter_map(|(id, accesses)| {
            let mut widest = 0;
            let mut farthest = 0;
            for a in &accesses {
                farthest = farthest.max(steps.of(a.pointer()?)?.checked_abs()?);
                widest = widest.max(a.size);
            }
            let span = farthest.checked_mul(31)?.checked_add(widest as i64)?;
            (span <= SECTOR_BYTES as i64).then_some((id, farthest))
        })
        .collect()
}

/// The report's reason for a structure whose lanes fall in one sector.
pub fn one_sector_reason(distance: i64) -> DirectReason {
    DirectReason::OneSector {
        distance,
        sector_bytes: SECTOR_BYTES,
    }
}

/// The structures of a main loop under the run-time lane test, each with
/// the affine address of its first access (symbols: the loop's induction
/// variables and values from before the loop).
pub fn lane_tested<'m>(
    k: &KernelAnalysis<'m>,
    scope: &LoopScope<'_, 'm>,
    in_loop: &[&Access<'m>],
) -> BTreeMap<u32, AffineAddress> {
    tested_structures(k, in_loop)
        .into_iter()
        .filter_map(|(id, accesses)| {
            let form = scope.affine(accesses[0].pointer()?).ok()?;
            Some((id, form))
        })
        .collect()
}

/// The distance between neighbouring lanes' first accesses of each
/// structure under the test, where the IR settles it (`lane_step`: also
/// for accesses in inner loops, whose counters the affine form of the
/// main loop does not follow): the test then costs nothing at run time.
pub fn static_distances<'m>(k: &KernelAnalysis<'m>, in_loop: &[&Access<'m>]) -> BTreeMap<u32, i64> {
    let mut steps = LaneSteps::new(k);
    tested_structures(k, in_loop)
        .into_iter()
        .filter_map(|(id, accesses)| {
            let distance = steps.of(accesses[0].pointer()?)?.checked_abs()?;
            Some((id, distance))
        })
        .collect()
}

/// `forms` without the terms that are the same in every lane (their step
/// from lane to lane is 0: `lane_step`), which cancel out of the distance
/// the run-time test measures.
pub fn without_uniform_terms(
    k: &KernelAnalysis<'_>,
    mut forms: BTreeMap<u32, AffineAddress>,
) -> BTreeMap<u32, AffineAddress> {
    let mut steps = LaneSteps::new(k);
    for form in forms.values_mut() {
        form.terms.retain(|&symbol, _| {
            crate::llvm::ir::Value::of_symbol(symbol).and_then(|v| steps.of(v)) != Some(0)
        });
    }
    forms
}

/// Whether lanes `distance` bytes apart share the hardware's lines.
pub fn close(distance: i64) -> bool {
    distance < HARDWARE_LINE_BYTES
}

/// The structures among `candidates` (those a loop would cache) that the
/// settled test leaves direct, with their distance: restrict ones whose
/// lanes are close, and all of them where every one is close. Arguments
/// without restrict are looked up as a group, so the test takes them only
/// all together: a direct access beside a cached alias could miss its
/// dirty line.
pub fn close_statically(
    k: &KernelAnalysis<'_>,
    distances: &BTreeMap<u32, i64>,
    candidates: &[u32],
) -> Vec<(u32, i64)> {
    let close_at = |id: &u32| distances.get(id).copied().filter(|&d| close(d));
    let all = !candidates.is_empty() && candidates.iter().all(|id| close_at(id).is_some());
    candidates
        .iter()
        .filter(|&&id| all || k.data_structures[id as usize].restrict)
        .filter_map(|id| Some((*id, close_at(id)?)))
        .collect()
}

/// The report's reason for a structure the settled test leaves direct.
pub fn close_reason(distance: i64) -> DirectReason {
    DirectReason::LanesClose {
        distance,
        hardware_line_bytes: HARDWARE_LINE_BYTES,
    }
}

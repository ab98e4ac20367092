//! How a main loop reads the structures it would cache: which it only
//! reads, which ride along with written ones, which an inner loop reads
//! again, and whether the loop is left to the hardware L1 or to the late
//! device rewrite's vector loads.

use std::collections::BTreeMap;

use crate::analysis::accesses::{Access, Base};
use crate::analysis::loops::Loop;
use crate::analysis::KernelAnalysis;
use crate::options::Options;
use crate::transform::state::read_only_companion;

use super::predictions::{counted_runs_expected, Predicted};

/// How a loop reads the structures it would cache.
pub(super) struct Reads<'a, 'm> {
    pub(super) k: &'a KernelAnalysis<'m>,
    pub(super) options: &'a Options,
    /// The loop's writes to global memory.
    pub(super) global_writes: Vec<&'a Access<'m>>,
    pub(super) read_only_in_runs: bool,
    /// The loop would be cached but for the late device rewrite, which
    /// reads its structures 16 B at a time.
    pub(super) left_to_vector_loads: bool,
    /// Read-only structures an inner loop reads again, with that loop.
    pub(super) rereads: BTreeMap<u32, String>,
}

impl Reads<'_, '_> {
    /// A read-only restrict structure, which rides along as a companion of
    /// the written ones unless read-only structures are cached.
    pub(super) fn restrict_read_only(&self, id: u32) -> bool {
        let ds = &self.k.data_structures[id as usize];
        read_only_companion(ds.restrict, ds.mode, self.options.cache_read_only)
    }

    /// A structure the loop only reads is a read stream there, whatever
    /// the kernel does with it elsewhere: a restrict one that no access of
    /// the loop may write, one without restrict where the loop writes no
    /// global memory at all (it may alias what is written). HeCBench
    /// `maxpool3d`'s non-restrict image, read in a pooling window, ran
    /// 0.70x of the build without S-L1 cached (H100, 2026-11-25).
    pub(super) fn only_read(&self, id: u32) -> bool {
        let ds = &self.k.data_structures[id as usize];
        self.restrict_read_only(id)
            || (!self.options.cache_read_only
                && if ds.restrict {
                    self.global_writes.iter().all(|a| {
                        !a.base.may_touch_argument(ds.arg_index)
                            && !matches!(a.base, Base::Unknown(_))
                    })
                } else {
                    self.global_writes.is_empty()
                })
    }

    /// A read stream left to the hardware L1 unless a written structure
    /// takes it along.
    pub(super) fn companion(&self, id: u32) -> bool {
        !self.read_only_in_runs && self.only_read(id) && !self.rereads.contains_key(&id)
    }

    /// A structure no write of the loop goes through: where every
    /// structure the loop would cache is one, its lines would serve reads
    /// alone, whatever the loop writes through the structures it leaves
    /// direct (an alias those writes may reach keeps a structure without
    /// restrict from riding as a companion, not from being left to the L1).
    /// HeCBench `chemv`, reading a matrix without restrict beside a direct
    /// accumulator, ran 0.36x cached (H100, 2026-11-26).
    pub(super) fn unwritten(&self, id: u32) -> bool {
        let arg = self.k.data_structures[id as usize].arg_index;
        !self.options.cache_read_only
            && !self.read_only_in_runs
            && !self.rereads.contains_key(&id)
            && !self
                .global_writes
                .iter()
                .any(|a| a.base.may_touch_argument(arg))
    }
}

/// How loop `l` reads the structures it would cache.
pub(super) fn reads<'a, 'm>(
    k: &'a KernelAnalysis<'m>,
    options: &'a Options,
    l: &Loop,
    in_loop: &[&'a Access<'m>],
    predicted: &Predicted,
    cacheable_accesses: &[(&Access<'m>, u32, u32)],
    cacheable: &[u32],
) -> Reads<'a, 'm> {
    let global_writes: Vec<&'a Access<'m>> = in_loop
        .iter()
        .copied()
        .filter(|a| a.kind.writes() && !matches!(a.base, Base::Shared | Base::Local))
        .collect();
    let mut reads = Reads {
        k,
        options,
        global_writes,
        read_only_in_runs: false,
        left_to_vector_loads: false,
        rereads: BTreeMap::new(),
    };
    // A loop that only reads restrict structures is left to the hardware
    // L1, unless it gets counted line runs: then most bytes are read from
    // shared memory without a check, which beats the L1 (measured on the
    // H100: wc 1.37x). Loops that also write keep their read-only
    // structures as companions of the written ones (see `decide`).
    // Not where the late device rewrite reads every cached structure 16
    // B at a time: HeCBench tensorAccessor's row-per-thread product ran
    // 0.561 ms with lines against 0.476 ms left to the vector loads
    // (H100, 2026-11-27).
    let vector_reads = options.device_tuning && options.vector_loads;
    let in_vector_pieces =
        |a: &Access<'m>| vector_reads && crate::analysis::reuse::read_in_vector_pieces(k, a);
    let all_in_vector_pieces = !cacheable.is_empty()
        && cacheable.iter().all(|&id| {
            cacheable_accesses
                .iter()
                .filter(|&&(_, of, _)| of == id)
                .all(|&(a, _, _)| in_vector_pieces(a))
        });
    let runs = options.line_runs
        && !options.stats
        && !cacheable.is_empty()
        && cacheable.iter().all(|&id| reads.restrict_read_only(id))
        && counted_runs_expected(k, l, &predicted.predictions, cacheable_accesses, cacheable);
    reads.read_only_in_runs = runs && !all_in_vector_pieces;
    // Read-only structures an inner loop reads again and again: between
    // two reads the hardware L1 loses them (k-means, measured on the
    // H100: 1.21x cached against 1.00x left to L1). Not where the late
    // device rewrite reads them 16 B at a time: k-means ran 0.690 ms so
    // left alone against 1.141 ms cached (H100, 2026-11-27).
    let rereads: Vec<(u32, String, bool)> = cacheable_accesses
        .iter()
        .filter(|&&(_, id, _)| reads.only_read(id) && cacheable.contains(&id))
        .filter_map(|&(a, id, _)| {
            crate::analysis::reuse::reread_across(k, l, a)
                .map(|inner| (id, inner, in_vector_pieces(a)))
        })
        .collect();
    reads.rereads = rereads
        .iter()
        .filter(|(_, _, pieces)| !pieces)
        .map(|(id, inner, _)| (*id, inner.clone()))
        .collect();
    // The vector loads are why the loop is left alone: it would be
    // cached without them.
    reads.left_to_vector_loads =
        (runs && all_in_vector_pieces) || (reads.rereads.is_empty() && !rereads.is_empty());
    reads
}

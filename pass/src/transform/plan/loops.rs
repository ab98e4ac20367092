//! The main loops of a kernel, in order: each chosen for slicing, with its
//! structures and how each is decided, or left as it is with the reason.

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::accesses::{Access, Base};
use crate::analysis::loops::Loop;
use crate::analysis::sync::ConvergentCall;
use crate::analysis::KernelAnalysis;
use crate::llvm::ir::Block;
use crate::options::Options;
use crate::transform::cost;
use crate::transform::predict::Prediction;
use crate::transform::reasons::Reason;
use crate::transform::reports::{Decided, DirectReason, RereadReport, TransformReport};
use crate::transform::sites::uncacheable_reason;
use crate::transform::state::StaticRate;

use super::predictions::{
    cold_structures, counted_runs_expected, predict, record_predictions, static_rates,
    streams_alike, Predicted,
};
use super::reads::{reads, Reads};

/// The largest loop the transform takes, in memory accesses and in
/// instructions: it copies a loop up to four times (monitoring, one cached
/// copy per line size, line runs), and LLVM's clean-up and O3 after it grow
/// faster than linearly with the copies (a loop of 2000 accesses took 20
/// times the plain compile time). Real kernels' loops are far smaller.
pub const MAX_LOOP_ACCESSES: usize = 256;
pub const MAX_LOOP_INSTRUCTIONS: usize = 3000;
/// The most main loops of one kernel the transform takes: each is
/// transformed on a fresh analysis of the kernel, which grows with every
/// loop done (150 loops took 25 times the plain compile time).
pub const MAX_LOOPS_PER_KERNEL: usize = 16;

/// A main loop chosen for slicing.
pub struct ChosenLoop<'m> {
    pub header: Block<'m>,
    pub label: String,
    /// The loop has a block barrier.
    pub uniform: bool,
    /// Structures that get a line.
    pub hot: BTreeSet<u32>,
    /// Structures left direct in this loop, with the reason.
    pub direct: BTreeMap<u32, DirectReason>,
    /// Every hot structure's predicted rate, when all are predicted: the
    /// loop then skips monitoring.
    pub static_rates: Option<BTreeMap<u32, StaticRate>>,
    /// The loop only reads, and it gets counted line runs
    /// (`counted_runs_expected`): its read-only restrict structures are
    /// cached as if `cache_read_only` were on.
    pub read_only_in_runs: bool,
    /// When every structure the loop caches streams (`cost::streams_whole`),
    /// all by the same stride, in counted line runs: how many of them it
    /// reads (each is staged). Longer lines pay there (`kernel_line_sizes`).
    pub streams: Option<u32>,
    /// Read-only structures an inner loop reads again (`RereadReport`):
    /// cached on their own, not as companions of written ones.
    pub rereads: BTreeSet<u32>,
    /// Hot structures whose lanes' distance the IR settles (`lanes`).
    pub lane_distances: BTreeMap<u32, i64>,
    /// Arguments without restrict that the loop's alias checks keep apart
    /// (`analysis::scopes`): restrict in this loop.
    pub apart: BTreeSet<u32>,
}

/// The planning of one kernel's main loops, in order.
pub(super) struct Planner<'a, 'm> {
    pub(super) k: &'a KernelAnalysis<'m>,
    pub(super) options: &'a Options,
    pub(super) report: &'a mut TransformReport,
    pub(super) convergent: Vec<ConvergentCall>,
    pub(super) loops: Vec<ChosenLoop<'m>>,
    /// Header blocks of the chosen loops.
    pub(super) cached_nests: BTreeSet<usize>,
    /// Predictions of cached structures: (report entry, how decided,
    /// stride, layout), completed once the line padding is known.
    pub(super) cached_predictions: Vec<(usize, Decided, i64, Vec<cost::Site>)>,
    pub(super) structures: BTreeSet<u32>,
    /// Bytes of the widest access through a line (sets the padding).
    pub(super) widest: u64,
}

impl<'a, 'm> Planner<'a, 'm> {
    /// A planner of `k`'s main loops that has chosen none yet.
    pub(super) fn new(
        k: &'a KernelAnalysis<'m>,
        options: &'a Options,
        report: &'a mut TransformReport,
    ) -> Self {
        Planner {
            k,
            options,
            report,
            convergent: crate::analysis::sync::convergent_calls(&k.blocks),
            loops: Vec::new(),
            cached_nests: BTreeSet::new(),
            cached_predictions: Vec::new(),
            structures: BTreeSet::new(),
            widest: 1,
        }
    }

    /// Chooses main loop `l`, or says in the report why it stays as it is.
    pub(super) fn plan_loop(&mut self, l: &Loop) {
        let k = self.k;
        let line = self.options.line_size;
        let in_loop: Vec<&Access<'m>> = k
            .accesses
            .iter()
            .filter(|a| l.blocks.contains(&a.block))
            .collect();
        // Each cacheable access, with its structure and the loop depth it sits at.
        let cacheable_accesses: Vec<(&Access<'m>, u32, u32)> = in_loop
            .iter()
            .copied()
            .filter(|a| uncacheable_reason(k, a, line).is_none())
            .filter_map(|a| {
                let depth = k
                    .loops
                    .innermost_loop_of(a.block)
                    .map_or(0, |i| k.loops.loops[i].depth);
                k.data_structure_of(a).map(|d| (a, d.id, depth))
            })
            .collect();
        let cacheable_at: Vec<(u32, u32)> = cacheable_accesses
            .iter()
            .map(|&(_, id, depth)| (id, depth))
            .collect();
        let cold = cold_structures(&cacheable_at);
        let mut cacheable: Vec<u32> = cacheable_at
            .iter()
            .map(|&(id, _)| id)
            .filter(|id| !cold.contains(id))
            .collect();
        let label = k.block_label(l.header);
        if let Some(reason) = self.early_refusal(l, &label, in_loop.len()) {
            self.report.reasons.push(reason);
            return;
        }
        let in_loop_convergent: Vec<&ConvergentCall> = self
            .convergent
            .iter()
            .filter(|c| l.blocks.contains(&c.block))
            .collect();
        let predicted = predict(
            k,
            self.options,
            &cold,
            &cacheable_accesses,
            &cacheable,
            &in_loop,
            !in_loop_convergent.is_empty(),
        );
        cacheable.retain(|id| !predicted.direct.contains_key(id));
        if cacheable.is_empty()
            && predicted
                .predictions
                .iter()
                .any(|(id, _)| predicted.direct.contains_key(id))
        {
            self.report.reasons.push(Reason::NothingPredictedToPay {
                loop_at: label.clone(),
            });
            record_predictions(k, self.report, &label, &predicted, line);
            return;
        }
        let reads = reads(
            k,
            self.options,
            l,
            &in_loop,
            &predicted,
            &cacheable_accesses,
            &cacheable,
        );
        let refusal = self
            .read_only_refusal(&label, &cacheable, &cold, &reads)
            .or_else(|| {
                let cached = (line, cacheable.as_slice());
                unsliceable(k, l, &label, cached, &in_loop, &in_loop_convergent)
            });
        if let Some(reason) = refusal {
            self.report.reasons.extend(reason);
            return;
        }
        record_predictions(k, self.report, &label, &predicted, line);
        self.choose(
            l,
            label,
            predicted,
            &cacheable_accesses,
            cacheable,
            reads,
            !in_loop_convergent.is_empty(),
        );
    }

    /// Why loop `l` is not taken before its structures are looked at.
    fn early_refusal(&self, l: &Loop, label: &str, accesses: usize) -> Option<Reason> {
        let k = self.k;
        let instructions: usize = l
            .blocks
            .iter()
            .map(|&b| k.blocks[b].instructions().len())
            .sum();
        if accesses > MAX_LOOP_ACCESSES || instructions > MAX_LOOP_INSTRUCTIONS {
            return Some(Reason::TooLarge {
                loop_at: label.to_string(),
                accesses,
                instructions,
                most_accesses: MAX_LOOP_ACCESSES,
                most_instructions: MAX_LOOP_INSTRUCTIONS,
            });
        }
        if self.loops.len() >= MAX_LOOPS_PER_KERNEL {
            return Some(Reason::LoopLimit {
                loop_at: label.to_string(),
                most: MAX_LOOPS_PER_KERNEL,
            });
        }
        if let Some(step) = crate::analysis::stride::cooperative_step(&k.blocks, l) {
            return Some(Reason::CooperativeStride {
                loop_at: label.to_string(),
                scope: step.scope().to_string(),
                registers: step.registers.join(" * "),
            });
        }
        if let Some(guard) = crate::analysis::lone_lane::lone_lane_guard(k, l.header) {
            return Some(Reason::LoneLane {
                loop_at: label.to_string(),
                guard: k.block_label(guard),
            });
        }
        None
    }

    /// Why a loop that would cache only structures it reads is left to the
    /// hardware L1.
    fn read_only_refusal(
        &self,
        label: &str,
        cacheable: &[u32],
        cold: &BTreeSet<u32>,
        reads: &Reads<'_, 'm>,
    ) -> Option<Option<Reason>> {
        if cacheable.is_empty()
            || !cacheable
                .iter()
                .all(|&id| reads.companion(id) || reads.unwritten(id))
        {
            return None;
        }
        if reads.left_to_vector_loads {
            return Some(Some(Reason::LeftToVectorLoads {
                loop_at: label.to_string(),
                structures: names(self.k, &cacheable.iter().copied().collect()),
            }));
        }
        Some(Some(Reason::OnlyReads {
            loop_at: label.to_string(),
            structures: names(self.k, &cacheable.iter().copied().collect()),
            cold: (!cold.is_empty()).then(|| (names(self.k, cold), cold.len() > 1)),
        }))
    }

    /// Records chosen loop `l`: its structures, how each is decided, and
    /// what the buffer must hold for them.
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &mut self,
        l: &Loop,
        label: String,
        predicted: Predicted,
        cacheable_accesses: &[(&Access<'m>, u32, u32)],
        cacheable: Vec<u32>,
        reads: Reads<'_, 'm>,
        uniform: bool,
    ) {
        let Predicted {
            predictions,
            direct,
            lane_distances,
            ..
        } = predicted;
        // How each structure the loop caches is decided, and the profiler's
        // view of it (which needs the line padding): said once the kernel
        // is known to be transformed.
        let all_static = predictions
            .iter()
            .filter(|(id, _)| !direct.contains_key(id))
            .all(|(_, p)| matches!(p, Prediction::Static { .. }));
        let first_entry = self.report.predictions.len() - predictions.len();
        for (k, (id, p)) in predictions.iter().enumerate() {
            if let (Prediction::Static { stride, layout, .. }, false) = (p, direct.contains_key(id))
            {
                let how = if all_static {
                    Decided::Statically
                } else {
                    Decided::Monitored
                };
                self.cached_predictions
                    .push((first_entry + k, how, *stride, layout.clone()));
            }
        }
        self.structures.extend(cacheable.iter().copied());
        self.widest = cacheable_accesses
            .iter()
            .filter(|&&(_, id, _)| cacheable.contains(&id))
            .map(|&(a, _, _)| a.size)
            .fold(self.widest, u64::max);
        let streams = streams_alike(&predictions, &cacheable).filter(|_| {
            self.options.line_runs
                && (reads.read_only_in_runs
                    || counted_runs_expected(
                        self.k,
                        l,
                        &predictions,
                        cacheable_accesses,
                        &cacheable,
                    ))
        });
        let hot: BTreeSet<u32> = cacheable.into_iter().collect();
        let static_rates = static_rates(&predictions, &hot, cacheable_accesses);
        self.report
            .rereads
            .extend(reads.rereads.iter().map(|(&id, inner)| RereadReport {
                loop_header: label.clone(),
                argument: self.k.data_structures[id as usize].name.clone(),
                inner_loop: inner.clone(),
            }));
        let lane_distances = lane_distances
            .into_iter()
            .filter(|(id, _)| hot.contains(id))
            .collect();
        self.cached_nests.insert(l.header);
        self.loops.push(ChosenLoop {
            header: self.k.blocks[l.header],
            label,
            uniform,
            hot,
            direct,
            static_rates,
            read_only_in_runs: reads.read_only_in_runs,
            streams,
            rereads: reads.rereads.keys().copied().collect(),
            lane_distances,
            apart: BTreeSet::new(),
        });
    }
}

/// Why a loop that would cache `cacheable` in lines of `line` bytes cannot
/// be sliced: `Some(None)` when it has nothing to cache and no access says
/// why.
fn unsliceable(
    k: &KernelAnalysis<'_>,
    l: &Loop,
    label: &str,
    (line, cacheable): (u32, &[u32]),
    in_loop: &[&Access<'_>],
    in_loop_convergent: &[&ConvergentCall],
) -> Option<Option<Reason>> {
    if cacheable.is_empty() {
        let why = in_loop.iter().find_map(|a| uncacheable_reason(k, a, line));
        return Some(why.map(|example| Reason::NoCacheableAccess {
            loop_at: label.to_string(),
            example: example.to_string(),
        }));
    }
    if let Some(a) = in_loop
        .iter()
        .find(|a| matches!(a.base, Base::Unknown(_) | Base::Mixed(_)))
    {
        return Some(Some(Reason::UntracedAddress {
            loop_at: label.to_string(),
            what: match &a.base {
                Base::Unknown(r) => r.to_string(),
                _ => "several arguments".to_string(),
            },
        }));
    }
    if in_loop_convergent.iter().any(|c| !c.block_barrier) {
        // Threads leave the monitoring slice at different iterations; a
        // shuffle or vote in the loop would then be reached by the threads
        // of one warp at different instructions.
        return Some(Some(Reason::WarpCollective {
            loop_at: label.to_string(),
        }));
    }
    if k.loops
        .irreducible_edges
        .iter()
        .any(|(f, t)| l.blocks.contains(f) || l.blocks.contains(t))
    {
        return Some(Some(Reason::Irreducible {
            loop_at: label.to_string(),
        }));
    }
    None
}

/// "`a`, `b`": the structures' names, quoted.
fn names(k: &KernelAnalysis<'_>, ids: &BTreeSet<u32>) -> String {
    ids.iter()
        .map(|&id| format!("`{}`", k.data_structures[id as usize].name))
        .collect::<Vec<_>>()
        .join(", ")
}

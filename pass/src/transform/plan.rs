//! What the transform will do to one kernel, decided from its analysis before
//! any IR changes: which main loops it slices and why the others stay as they
//! are, which structures get a line in each and how each is decided, and the
//! line buffer. `transform_kernel` emits the plan.

use std::collections::{BTreeMap, BTreeSet};

use inkwell::llvm_sys::prelude::LLVMBasicBlockRef;

use super::cost;
use super::lanes;
use super::local_nests;
use super::predict::{self, Prediction, PredictionReport};
use super::reasons::Reason;
use super::reports::{
    ApartReport, Decided, Decision, DirectReason, LaunchBytes, RereadReport, TransformReport,
};
use super::sites::uncacheable_reason;
use super::state::{read_only_companion, StaticRate};
use crate::analysis::accesses::{Access, Base};
use crate::analysis::loops::Loop;
use crate::analysis::scopes::apart_in_loop;
use crate::analysis::sync::{convergent_calls, ConvergentCall};
use crate::analysis::KernelAnalysis;
use crate::options::Options;

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

/// Shared memory the kernel takes itself, beside the line buffer.
#[derive(Clone, Copy, Debug)]
pub struct KernelShared {
    /// Static bytes, and the declared most of dynamic shared memory.
    pub bytes: u64,
    /// The kernel uses dynamic shared memory (`extern __shared__`).
    pub dynamic: bool,
}

/// The line sizes of one kernel: from the smallest (`Options::line_size`)
/// up to the largest, doubling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineSizes {
    pub smallest: u32,
    /// `Options::max_line_size`, or more where longer lines pay
    /// (`kernel_line_sizes`).
    pub largest: u32,
}

impl LineSizes {
    /// Every size, from the smallest up.
    pub fn all(&self) -> Vec<u32> {
        std::iter::successors(Some(self.smallest), |s| Some(s * 2))
            .take_while(|&s| s <= self.largest)
            .collect()
    }

    /// Whether the decision picks among several sizes.
    pub fn picked(&self) -> bool {
        self.largest > self.smallest
    }
}

/// The transform of one kernel, before it is emitted.
pub struct KernelPlan<'o> {
    /// The main loops to slice, in the kernel's loop order.
    pub loops: Vec<ChosenLoop>,
    /// Structures that get a line in some loop.
    pub structures: BTreeSet<u32>,
    /// The options given.
    pub options: &'o Options,
    /// The line sizes the kernel is transformed with: those given, with the
    /// read-only line size as the largest when every loop only reads.
    pub lines: LineSizes,
    /// Bytes after each line (`line_pad`).
    pub pad: u32,
    /// Bytes of the line buffer at the largest block.
    pub buffer: u64,
    /// The buffer comes from the launch (`Options::launch_sized`).
    pub launch_bytes: Option<LaunchBytes>,
}

/// A main loop chosen for slicing.
pub struct ChosenLoop {
    pub header: LLVMBasicBlockRef,
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

/// Plans the transform of kernel `k`, which uses `shared` itself. What
/// stays untransformed, and why, goes to `report`; `None` when nothing is
/// transformed.
pub fn plan_kernel<'o>(
    k: &KernelAnalysis<'_>,
    options: &'o Options,
    shared: KernelShared,
    report: &mut TransformReport,
) -> Option<KernelPlan<'o>> {
    // Each main loop sees the arguments its alias checks keep apart as
    // restrict (`scopes`); a loop without any sees the kernel as it is.
    let main_loops: Vec<&Loop> = k.loops.loops.iter().filter(|l| l.depth == 1).collect();
    let views: Vec<(BTreeSet<u32>, Option<KernelAnalysis<'_>>)> = main_loops
        .iter()
        .map(|l| {
            let apart = apart_in_loop(k, l);
            let view = (!apart.is_empty()).then(|| k.with_restrict(&apart));
            (apart, view)
        })
        .collect();
    let mut planner = Planner {
        k,
        options,
        report,
        convergent: convergent_calls(&k.blocks),
        loops: Vec::new(),
        cached_nests: BTreeSet::new(),
        cached_predictions: Vec::new(),
        structures: BTreeSet::new(),
        widest: 1,
    };
    for (l, (apart, view)) in main_loops.into_iter().zip(&views) {
        planner.k = view.as_ref().unwrap_or(k);
        let chosen = planner.loops.len();
        planner.plan_loop(l);
        if let Some(loop_plan) = planner.loops.get_mut(chosen) {
            loop_plan.apart = apart.clone();
            if !apart.is_empty() {
                planner.report.apart_by_checks.push(ApartReport {
                    loop_header: k.block_label(l.header),
                    arguments: apart
                        .iter()
                        .map(|&id| k.data_structures[id as usize].name.clone())
                        .collect(),
                });
            }
        }
    }
    planner.k = k;
    let Planner {
        report,
        loops,
        cached_nests,
        cached_predictions,
        structures,
        widest,
        ..
    } = planner;
    if loops.is_empty() {
        if report.reasons.is_empty() {
            report.reasons.push(Reason::NoMainLoop);
        }
        return None;
    }
    if let Some(nest) = local_nests::deeper_local_nest(k, &cached_nests) {
        report.reasons.push(nest.reason());
        return None;
    }
    report.stream_lines = stream_line_size(options, &loops);
    let sizes = kernel_line_sizes(options, &loops, report.stream_lines);
    let pad = if options.line_padding {
        line_pad(widest)
    } else {
        0
    };
    let buffer = size_buffer(options, pad, structures.len(), shared, report)?;
    for (entry, how, stride, layout) in cached_predictions {
        let p = &mut report.predictions[entry];
        if let Decision::Cached { decided, .. } = &mut p.decision {
            *decided = Some(how);
        }
        p.sectors = cost::sector_figures(stride, &layout, &sizes.all(), pad);
    }
    report.shared_bytes = buffer;
    report.line_pad_bytes = pad;
    // Launch-sized: the same most, given per block at launch (beside the
    // kernel's own dynamic shared memory the buffer stays static).
    let launch_bytes = (options.launch_sized && !shared.dynamic).then(|| LaunchBytes {
        per_thread: structures.len() as u64 * u64::from(sizes.largest + pad),
        most: buffer,
    });
    report.launch_bytes = launch_bytes;
    let lines = buffer / u64::from(options.line_size + pad);
    let block = u64::from(report.max_threads);
    let wanted_lines = block * structures.len() as u64;
    if lines < wanted_lines {
        let first_warps = (lines + block).saturating_sub(wanted_lines) / 32;
        report.warps_with_lines = Some(first_warps as u32);
        report.warps_with_a_line = Some((lines.min(block) / 32) as u32);
    }
    Some(KernelPlan {
        loops,
        structures,
        options,
        lines: sizes,
        pad,
        buffer,
        launch_bytes,
    })
}

/// Bytes of read streams' next lines a thread keeps staged in registers at
/// most in a loop of streams: one 128 B line, 32 of the 64 registers a
/// thread of a 1024-thread block has. With four 128 B stages `soa` spilled
/// 1.7 KB (ptxas, sm_90) and ran 0.96x the build with lines up to 32 B
/// (H100, 2026-11-26).
const STAGED_STREAM_BYTES: u32 = 128;

/// The line sizes of one kernel: the largest grows where longer lines
/// pay. Loops that only read fill their lines from the stage, loaded
/// a run ahead, and a longer line makes longer runs (wc on the H100: 2.43x
/// with 64 B, 2.31x with 32 B). Loops whose every structure streams
/// (`ChosenLoop::streams`) take lines up to 128 B, as long as their read
/// streams' stages fit `STAGED_STREAM_BYTES`, where a launch's block leaves
/// room for them: the warp stages their reads and writes their lines back
/// whole (H100, 2026-11-26, against lines up to 32 B at each app's best
/// launch: upper 1.08x, wc 1.13x, affinity 1.12x, bytes_u8 1.09x; lut,
/// reading 1 B and writing 4 B an iteration, 0.95x, and saxpy, reading and
/// writing `y`, 0.96x, are no such loops).
/// `stream_line` is the kernel's `stream_line_size`.
fn kernel_line_sizes(
    options: &Options,
    loops: &[ChosenLoop],
    stream_line: Option<u32>,
) -> LineSizes {
    let mut max = options.max_line_size;
    if loops.iter().all(|h| h.read_only_in_runs) {
        max = max.max(options.read_only_max_line_size);
    }
    if let Some(line) = stream_line {
        max = max.max(line);
    }
    LineSizes {
        smallest: options.line_size,
        largest: max,
    }
}

/// The largest line size a kernel whose every loop streams may take: up to
/// `Options::stream_max_line_size`, with the stages of the most read
/// streams of one loop within `STAGED_STREAM_BYTES`.
fn stream_line_size(options: &Options, loops: &[ChosenLoop]) -> Option<u32> {
    let reads = loops
        .iter()
        .map(|h| h.streams)
        .collect::<Option<Vec<u32>>>()?
        .into_iter()
        .max()?;
    // The largest power of two within the stages' share (none past 128 reads).
    let staged = (STAGED_STREAM_BYTES / reads.max(1)).checked_ilog2()?;
    let line = options.stream_max_line_size.min(1 << staged);
    (line > options.max_line_size).then_some(line)
}

/// When every structure of `cached` is predicted to stream whole
/// (`cost::streams_whole`), all by the same stride (their lines then end at
/// the same iteration, and a run uses every line it holds to its end): how
/// many of them are read.
fn streams_alike(predictions: &[(u32, Prediction)], cached: &[u32]) -> Option<u32> {
    let cached: BTreeSet<u32> = cached.iter().copied().collect();
    let streams: Vec<(i64, bool)> = cached
        .iter()
        .map(|id| {
            predictions
                .iter()
                .find_map(|(p, prediction)| match prediction {
                    Prediction::Static { stride, layout, .. }
                        if p == id && cost::streams_whole(*stride, layout) =>
                    {
                        Some((*stride, layout.iter().all(|s| !s.kind.writes())))
                    }
                    _ => None,
                })
        })
        .collect::<Option<_>>()?;
    let strides: BTreeSet<i64> = streams.iter().map(|&(stride, _)| stride).collect();
    (strides.len() == 1).then(|| streams.iter().filter(|&&(_, read)| read).count() as u32)
}

/// The line buffer: one line per structure and thread at the largest block,
/// each line followed by `pad` bytes, within what the budget leaves beside
/// the kernel's own shared memory; `None` (and the reason in `report`) when
/// that cannot give a warp one line each.
fn size_buffer(
    options: &Options,
    pad: u32,
    structures: usize,
    shared: KernelShared,
    report: &mut TransformReport,
) -> Option<u64> {
    let pitch = u64::from(options.line_size + pad);
    let available = options.shared_budget.saturating_sub(shared.bytes);
    let wanted = u64::from(report.max_threads) * structures as u64 * pitch;
    let buffer = wanted.min(available) / 16 * 16;
    if buffer < 32 * pitch {
        report.reasons.push(Reason::NoRoomForLines {
            kernel_bytes: shared.bytes,
            with_dynamic: report.dynamic_shared_bytes.is_some(),
            left: available,
            budget: options.shared_budget,
        });
        return None;
    }
    Some(buffer)
}

/// The planning of one kernel's main loops, in order.
struct Planner<'a, 'm> {
    k: &'a KernelAnalysis<'m>,
    options: &'a Options,
    report: &'a mut TransformReport,
    convergent: Vec<ConvergentCall>,
    loops: Vec<ChosenLoop>,
    /// Header blocks of the chosen loops.
    cached_nests: BTreeSet<usize>,
    /// Predictions of cached structures: (report entry, how decided,
    /// stride, layout), completed once the line padding is known.
    cached_predictions: Vec<(usize, Decided, i64, Vec<cost::Site>)>,
    structures: BTreeSet<u32>,
    /// Bytes of the widest access through a line (sets the padding).
    widest: u64,
}

/// A loop's predictions and what they leave direct.
struct Predicted {
    predictions: Vec<(u32, Prediction)>,
    /// Structures left direct, with the reason.
    direct: BTreeMap<u32, DirectReason>,
    /// What each structure's lines can gain at most (`cost`), where it
    /// clears the margin.
    gain_bounds: BTreeMap<u32, f64>,
    /// Structures whose lanes' distance the IR settles.
    lane_distances: BTreeMap<u32, i64>,
}

/// How a loop reads the structures it would cache.
struct Reads<'a, 'm> {
    k: &'a KernelAnalysis<'m>,
    options: &'a Options,
    /// The loop's writes to global memory.
    global_writes: Vec<&'a Access<'m>>,
    read_only_in_runs: bool,
    /// The loop would be cached but for the late device rewrite, which
    /// reads its structures 16 B at a time.
    left_to_vector_loads: bool,
    /// Read-only structures an inner loop reads again, with that loop.
    rereads: BTreeMap<u32, String>,
}

impl Reads<'_, '_> {
    /// A read-only restrict structure, which rides along as a companion of
    /// the written ones unless read-only structures are cached.
    fn restrict_read_only(&self, id: u32) -> bool {
        let ds = &self.k.data_structures[id as usize];
        read_only_companion(ds.restrict, ds.mode, self.options.cache_read_only)
    }

    /// A structure the loop only reads is a read stream there, whatever
    /// the kernel does with it elsewhere: a restrict one that no access of
    /// the loop may write, one without restrict where the loop writes no
    /// global memory at all (it may alias what is written). HeCBench
    /// `maxpool3d`'s non-restrict image, read in a pooling window, ran
    /// 0.70x of the build without S-L1 cached (H100, 2026-11-25).
    fn only_read(&self, id: u32) -> bool {
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
    fn companion(&self, id: u32) -> bool {
        !self.read_only_in_runs && self.only_read(id) && !self.rereads.contains_key(&id)
    }

    /// A structure no write of the loop goes through: where every
    /// structure the loop would cache is one, its lines would serve reads
    /// alone, whatever the loop writes through the structures it leaves
    /// direct (an alias those writes may reach keeps a structure without
    /// restrict from riding as a companion, not from being left to the L1).
    /// HeCBench `chemv`, reading a matrix without restrict beside a direct
    /// accumulator, ran 0.36x cached (H100, 2026-11-26).
    fn unwritten(&self, id: u32) -> bool {
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

impl<'m> Planner<'_, 'm> {
    /// Chooses main loop `l`, or says in the report why it stays as it is.
    fn plan_loop(&mut self, l: &Loop) {
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
        let predicted = self.predict(
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
        let reads = self.reads(l, &in_loop, &predicted, &cacheable_accesses, &cacheable);
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

    /// Each structure's prediction, and the structures they leave direct:
    /// cold ones, those predicted to miss or to gain too little, those
    /// whose lanes are closer than a hardware line (`lanes`) and those whose
    /// lanes fall in one sector (not settled in loops with a collective).
    fn predict(
        &self,
        cold: &BTreeSet<u32>,
        cacheable_accesses: &[(&Access<'m>, u32, u32)],
        cacheable: &[u32],
        in_loop: &[&Access<'m>],
        collective: bool,
    ) -> Predicted {
        let (k, options, line) = (self.k, self.options, self.options.line_size);
        let mut direct: BTreeMap<u32, DirectReason> =
            cold.iter().map(|&id| (id, DirectReason::Cold)).collect();
        // Forced off measures the paper's overhead (monitoring and per-access
        // checks), which a static decision would fold away.
        let predictions = if options.static_prediction && !options.force_uncached {
            predict_structures(k, cacheable_accesses, cacheable, line)
        } else {
            Vec::new()
        };
        let mut gain_bounds: BTreeMap<u32, f64> = BTreeMap::new();
        for (id, p) in &predictions {
            if let (_, _, Decision::Direct { reason }) = predict::describe(p, line) {
                direct.insert(*id, reason);
                continue;
            }
            let Prediction::Static { stride, layout, .. } = p else {
                continue;
            };
            if let Some(bound) = cost::gain_bound(*stride, layout, &cost::H100_RATES) {
                if !bound.pays() {
                    direct.insert(*id, bound.direct_reason(&cost::H100_RATES));
                } else {
                    gain_bounds.insert(*id, bound.gain);
                }
            }
        }
        // The lane test where the IR settles it: closer lanes than a hardware
        // line share its lines (`lanes`). Not in loops with a collective.
        let lane_distances = if collective {
            BTreeMap::new()
        } else {
            lanes::static_distances(k, in_loop)
        };
        let candidates: Vec<u32> = cacheable
            .iter()
            .copied()
            .filter(|id| !direct.contains_key(id))
            .collect();
        for (id, distance) in lanes::close_statically(k, &lane_distances, &candidates) {
            direct.insert(id, lanes::close_reason(distance));
        }
        // Lanes in one sector: direct beside anything (the aliased group's
        // other members check its direct accesses' addresses, `slice`).
        if !collective {
            for (id, distance) in lanes::in_one_sector(k, in_loop) {
                if candidates.contains(&id) && !direct.contains_key(&id) {
                    direct.insert(id, lanes::one_sector_reason(distance));
                }
            }
        }
        Predicted {
            predictions,
            direct,
            gain_bounds,
            lane_distances,
        }
    }

    /// How loop `l` reads the structures it would cache.
    fn reads<'a>(
        &self,
        l: &Loop,
        in_loop: &[&'a Access<'m>],
        predicted: &Predicted,
        cacheable_accesses: &[(&Access<'m>, u32, u32)],
        cacheable: &[u32],
    ) -> Reads<'a, 'm>
    where
        Self: 'a,
    {
        let global_writes: Vec<&'a Access<'m>> = in_loop
            .iter()
            .copied()
            .filter(|a| a.kind.writes() && !matches!(a.base, Base::Shared | Base::Local))
            .collect();
        let mut reads = Reads {
            k: self.k,
            options: self.options,
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
        let vector_reads = self.options.device_tuning && self.options.vector_loads;
        let in_vector_pieces = |a: &Access<'m>| {
            vector_reads && crate::analysis::reuse::read_in_vector_pieces(self.k, a)
        };
        let all_in_vector_pieces = !cacheable.is_empty()
            && cacheable.iter().all(|&id| {
                cacheable_accesses
                    .iter()
                    .filter(|&&(_, of, _)| of == id)
                    .all(|&(a, _, _)| in_vector_pieces(a))
            });
        let runs = self.options.line_runs
            && !self.options.stats
            && !cacheable.is_empty()
            && cacheable.iter().all(|&id| reads.restrict_read_only(id))
            && counted_runs_expected(
                self.k,
                l,
                &predicted.predictions,
                cacheable_accesses,
                cacheable,
            );
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
                crate::analysis::reuse::reread_across(self.k, l, a)
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
            header: self.k.blocks[l.header].as_raw_block(),
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

/// Adds loop `label`'s predictions to the report, each with its decision.
fn record_predictions(
    k: &KernelAnalysis<'_>,
    report: &mut TransformReport,
    label: &str,
    predicted: &Predicted,
    line: u32,
) {
    let Predicted {
        predictions,
        direct,
        gain_bounds,
        ..
    } = predicted;
    for (id, p) in predictions {
        let (stride, hit_percent, mut decision) = predict::describe(p, line);
        if let Some(reason) = direct.get(id) {
            decision = Decision::Direct {
                reason: reason.clone(),
            };
        }
        if let Decision::Cached { gain, .. } = &mut decision {
            *gain = gain_bounds.get(id).copied();
        }
        report.predictions.push(PredictionReport {
            loop_header: label.to_string(),
            argument: k.data_structures[*id as usize].name.clone(),
            stride,
            hit_percent,
            decision,
            sectors: None,
        });
    }
}

/// Every hot structure's predicted rate, when all are predicted statically.
fn static_rates(
    predictions: &[(u32, Prediction)],
    hot: &BTreeSet<u32>,
    cacheable_accesses: &[(&Access<'_>, u32, u32)],
) -> Option<BTreeMap<u32, StaticRate>> {
    predictions
        .iter()
        .filter(|(id, _)| hot.contains(id))
        .map(|(id, p)| match p {
            Prediction::Static {
                hit_percent,
                sites,
                stride,
                ..
            } => Some((
                *id,
                StaticRate {
                    hit_percent: *hit_percent,
                    sites: *sites,
                    stride: *stride,
                    in_main_loop: cacheable_accesses
                        .iter()
                        .filter(|&&(_, of, _)| of == *id)
                        .all(|&(_, _, depth)| depth == 1),
                },
            )),
            Prediction::Dynamic(_) | Prediction::Indirect => None,
        })
        .collect::<Option<BTreeMap<_, _>>>()
        .filter(|rates| rates.len() == hot.len())
}

/// Bytes after each line in shared memory, so that the threads of a warp
/// reading the same offset of their lines hit different banks: with 4 B more,
/// a 32 B line starts 9 banks after its neighbour's, and 9 is prime to the 32
/// banks (without, 8: eight threads share a bank). Lines with wider accesses
/// get that width (an aligned access must stay aligned), which spreads the
/// quarter- or half-warps that share a wavefront the same way.
fn line_pad(widest_access: u64) -> u32 {
    widest_access.clamp(4, 16) as u32
}

/// "`a`, `b`": the structures' names, quoted.
fn names(k: &KernelAnalysis<'_>, ids: &BTreeSet<u32>) -> String {
    ids.iter()
        .map(|&id| format!("`{}`", k.data_structures[id as usize].name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the loop will get line runs that leave the exit test out: every
/// cached structure is a restrict argument predicted to move forward in the
/// loop itself, nothing in the loop writes lines back early (fences,
/// barriers, calls, atomics), and the exit test is counted. (`LoopSlice`
/// checks the same once the accesses are routed, and the report says what
/// it found.)
fn counted_runs_expected(
    k: &KernelAnalysis<'_>,
    l: &Loop,
    predictions: &[(u32, Prediction)],
    accesses: &[(&Access<'_>, u32, u32)],
    cacheable: &[u32],
) -> bool {
    let forward = |id: &u32| {
        k.data_structures[*id as usize].restrict
            && predictions.iter().any(|(p, prediction)| {
                p == id
                    && matches!(prediction, Prediction::Static { stride, hit_percent, .. }
                        if *stride > 0 && *hit_percent > predict::MIN_HIT_PERCENT)
            })
            && accesses
                .iter()
                .filter(|&&(_, of, _)| of == *id)
                .all(|&(_, _, depth)| depth == 1)
    };
    !cacheable.is_empty()
        && cacheable.iter().all(forward)
        && !k.sync_points.iter().any(|s| l.blocks.contains(&s.block))
        && crate::analysis::affine::LoopScope::new(k.function, &k.blocks, l)
            .counted_exit()
            .is_ok()
}

/// Each cacheable structure's prediction in one main loop, by structure id.
/// `accesses` are the loop's cacheable accesses with their structure and depth.
fn predict_structures(
    k: &KernelAnalysis<'_>,
    accesses: &[(&Access<'_>, u32, u32)],
    cacheable: &[u32],
    line: u32,
) -> Vec<(u32, Prediction)> {
    let ids: BTreeSet<u32> = cacheable.iter().copied().collect();
    ids.into_iter()
        .map(|id| {
            let accesses: Vec<&Access<'_>> = accesses
                .iter()
                .filter(|&&(_, of, _)| of == id)
                .map(|&(a, _, _)| a)
                .collect();
            (id, predict::predict(k, &accesses, line))
        })
        .collect()
}

/// Structures of a main loop whose cacheable accesses (structure, loop
/// depth) all sit at a shallower depth than the loop's deepest one (`c[e]`
/// after the inner product loop of a matrix multiply): they are accessed an
/// inner loop's trip count times less often than the structures in there.
fn cold_structures(cacheable_at: &[(u32, u32)]) -> BTreeSet<u32> {
    let deepest = cacheable_at.iter().map(|&(_, d)| d).max().unwrap_or(0);
    let hot: BTreeSet<u32> = cacheable_at
        .iter()
        .filter(|&&(_, d)| d == deepest)
        .map(|&(id, _)| id)
        .collect();
    cacheable_at
        .iter()
        .map(|&(id, _)| id)
        .filter(|id| !hot.contains(id))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    use super::*;
    use crate::analysis::analyse_kernel;

    /// What a plan says, in names (the plan's blocks die with the module).
    #[derive(Debug, PartialEq)]
    struct Summary {
        loops: Vec<String>,
        cached: Vec<Vec<String>>,
        read_only_in_runs: Vec<bool>,
        max_line_size: u32,
        pad: u32,
        buffer: u64,
    }

    /// Lines of at most 32 B in every kernel, for tests about something else.
    fn short_lines() -> Options {
        Options {
            read_only_max_line_size: 32,
            stream_max_line_size: 32,
            ..Options::default()
        }
    }

    /// Plans kernel `name` of `testdata/ll/<case>.ll` under `options`,
    /// beside `shared` bytes of the kernel's own, and checks that planning
    /// left the module as it was.
    fn plan_case(
        case: &str,
        name: &str,
        options: &Options,
        shared: u64,
    ) -> (Option<Summary>, TransformReport) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../testdata/ll")
            .join(format!("{case}.ll"));
        let context = Context::create();
        let buffer = MemoryBuffer::create_from_file(&path).unwrap();
        let module = context.create_module_from_ir(buffer).unwrap();
        let kernel = module.get_function(name).unwrap();
        let before = module.print_to_string().to_string();
        let k = analyse_kernel(&module, kernel);
        let mut report = TransformReport {
            max_threads: options.max_threads,
            ..TransformReport::default()
        };
        let shared = KernelShared {
            bytes: shared,
            dynamic: false,
        };
        let plan = plan_kernel(&k, options, shared, &mut report);
        assert_eq!(
            module.print_to_string().to_string(),
            before,
            "{case}: the plan changed the IR"
        );
        let summary = plan.map(|p| Summary {
            loops: p.loops.iter().map(|l| l.label.clone()).collect(),
            cached: p
                .loops
                .iter()
                .map(|l| {
                    l.hot
                        .iter()
                        .map(|&id| k.data_structures[id as usize].name.clone())
                        .collect()
                })
                .collect(),
            read_only_in_runs: p.loops.iter().map(|l| l.read_only_in_runs).collect(),
            max_line_size: p.lines.largest,
            pad: p.pad,
            buffer: p.buffer,
        });
        (summary, report)
    }

    #[test]
    fn each_written_main_loop_is_chosen_and_the_buffer_holds_a_line_per_structure_and_thread() {
        let options = short_lines();
        let (plan, report) = plan_case("two_loops", "two_loops", &options, 0);
        let plan = plan.expect("both loops write: the kernel is transformed");
        assert_eq!(plan.loops.len(), 2, "{plan:?}");
        assert!(plan.cached.iter().all(|c| !c.is_empty()), "{plan:?}");
        assert_eq!(plan.max_line_size, options.max_line_size);
        // 4-byte accesses: 4 bytes of padding; one 16 B line (+ pad) per
        // structure and thread of a 1024-thread block, within 48 KiB.
        assert_eq!(plan.pad, 4);
        let structures: BTreeSet<&String> = plan.cached.iter().flatten().collect();
        let wanted = 1024 * structures.len() as u64 * u64::from(options.line_size + plan.pad);
        assert_eq!(plan.buffer, wanted.min(options.shared_budget) / 16 * 16);
        assert_eq!(report.shared_bytes, plan.buffer);
        assert!(report.reasons.is_empty(), "{:?}", report.reasons);
    }

    #[test]
    fn a_kernel_whose_shared_memory_leaves_no_warp_a_line_each_is_not_planned() {
        let options = Options::default();
        let (plan, report) = plan_case("restrict_loop", "restrict_loop", &options, 0);
        assert!(plan.is_some());
        let (plan, report_full) = plan_case(
            "restrict_loop",
            "restrict_loop",
            &options,
            options.shared_budget - 64,
        );
        assert_eq!(plan, None);
        assert!(
            matches!(&report_full.reasons[..], [Reason::NoRoomForLines { .. }]),
            "{:?}",
            report_full.reasons
        );
        assert!(report.reasons.is_empty(), "{:?}", report.reasons);
    }

    #[test]
    fn loops_that_only_read_in_counted_runs_take_the_read_only_line_size() {
        // The loop streams too; the stream limit, off here, is stream_lines.rs's.
        let options = Options {
            stream_max_line_size: 32,
            ..Options::default()
        };
        let (plan, report) = plan_case("predicted_strides", "sometimes", &options, 0);
        let plan = plan.unwrap_or_else(|| panic!("{:?}", report.reasons));
        assert_eq!(plan.read_only_in_runs, [true], "{plan:?}");
        assert_eq!(plan.max_line_size, options.read_only_max_line_size);
        let no_runs = Options {
            line_runs: false,
            ..Options::default()
        };
        let left_to_the_l1 = |report: &TransformReport| {
            assert!(
                report
                    .reasons
                    .iter()
                    .any(|r| matches!(r, Reason::OnlyReads { .. })),
                "{:?}",
                report.reasons
            )
        };
        let (plan, report) = plan_case("predicted_strides", "sometimes", &no_runs, 0);
        assert_eq!(plan, None, "left to the hardware L1 without counted runs");
        left_to_the_l1(&report);
        // A loop that writes only what it leaves direct: its input's lines
        // would serve reads alone.
        let (plan, report) = plan_case("read_streams", "row_accumulate", &options, 0);
        assert_eq!(plan, None);
        left_to_the_l1(&report);
    }

    #[test]
    fn loops_left_as_they_are_are_named_with_the_reason_and_the_others_chosen() {
        let options = Options::default();
        let (plan, report) = plan_case("lone_lane", "first_thread", &options, 0);
        assert_eq!(plan, None);
        assert_eq!(report.reasons.len(), 1);
        assert!(
            matches!(&report.reasons[0], Reason::LoneLane { loop_at, .. } if loop_at == "loop"),
            "{:?}",
            report.reasons
        );
        // Block- and grid-stride loops are refused; the chunk loop is chosen.
        let (plan, report) = plan_case("stride_loops", "stride_loops", &options, 0);
        let plan = plan.unwrap_or_else(|| panic!("{:?}", report.reasons));
        assert_eq!(plan.loops.len(), 1, "{plan:?}");
        assert!(!plan.loops.iter().any(|l| l == "block" || l == "grid"));
        let refused: Vec<&str> = report
            .reasons
            .iter()
            .map(|r| match r {
                Reason::CooperativeStride { loop_at, .. } => loop_at.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(refused, ["block", "grid"]);
        let small = Options {
            line_size: 8,
            max_line_size: 8,
            stream_max_line_size: 8,
            ..Options::default()
        };
        let (plan, report) = plan_case("restrict_loop", "restrict_loop", &small, 0);
        let plan = plan.unwrap_or_else(|| panic!("{:?}", report.reasons));
        assert_eq!((plan.loops.len(), plan.max_line_size), (1, 8));
    }
}

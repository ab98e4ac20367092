//! Each structure's prediction in a main loop (`predict`), the structures
//! it leaves direct (cold, predicted to miss or to gain too little, lanes
//! close together), and what the report and the decision take from it.

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::accesses::Access;
use crate::analysis::loops::Loop;
use crate::analysis::KernelAnalysis;
use crate::options::Options;
use crate::transform::cost;
use crate::transform::lanes;
use crate::transform::predict::{self, Prediction, PredictionReport};
use crate::transform::reports::{Decision, DirectReason, TransformReport};
use crate::transform::state::StaticRate;

/// A loop's predictions and what they leave direct.
pub(super) struct Predicted {
    pub(super) predictions: Vec<(u32, Prediction)>,
    /// Structures left direct, with the reason.
    pub(super) direct: BTreeMap<u32, DirectReason>,
    /// What each structure's lines can gain at most (`cost`), where it
    /// clears the margin.
    pub(super) gain_bounds: BTreeMap<u32, f64>,
    /// Structures whose lanes' distance the IR settles.
    pub(super) lane_distances: BTreeMap<u32, i64>,
}

/// Each structure's prediction, and the structures they leave direct:
/// cold ones, those predicted to miss or to gain too little, those
/// whose lanes are closer than a hardware line (`lanes`) and those whose
/// lanes fall in one sector (not settled in loops with a collective).
pub(super) fn predict<'m>(
    k: &KernelAnalysis<'m>,
    options: &Options,
    cold: &BTreeSet<u32>,
    cacheable_accesses: &[(&Access<'m>, u32, u32)],
    cacheable: &[u32],
    in_loop: &[&Access<'m>],
    collective: bool,
) -> Predicted {
    let line = options.line_size;
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
        if let Some(bound) = cost::gain_bound(*stride, layout, &options.memory_rates) {
            if !bound.pays() {
                direct.insert(*id, bound.direct_reason(&options.memory_rates));
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
    leave_large_aliased_groups_direct(k, &candidates, &mut direct);
    Predicted {
        predictions,
        direct,
        gain_bounds,
        lane_distances,
    }
}

/// The most arguments without restrict whose lines a loop looks up
/// together. Every access of an aliased group looks up each member's line
/// (`runtime::access`), so a loop's code grows with the square of the
/// group: sixteen members (fourteen inputs, two outputs) made 212,000 PTX
/// lines and two minutes of ptxas, six 34,000 lines and 5 s
/// (2026-11-30). The do-no-harm suite's largest group is five (`rank2`).
pub(crate) const MOST_ALIASED_MEMBERS: usize = 8;

/// Leaves every member of a loop's aliased group direct (the structures
/// without restrict it would still cache) when there are more than
/// `MOST_ALIASED_MEMBERS`.
fn leave_large_aliased_groups_direct(
    k: &KernelAnalysis<'_>,
    candidates: &[u32],
    direct: &mut BTreeMap<u32, DirectReason>,
) {
    let group: Vec<u32> = candidates
        .iter()
        .copied()
        .filter(|id| !k.data_structures[*id as usize].restrict && !direct.contains_key(id))
        .collect();
    if group.len() > MOST_ALIASED_MEMBERS {
        for id in &group {
            direct.insert(
                *id,
                DirectReason::LargeAliasedGroup {
                    members: group.len(),
                    most: MOST_ALIASED_MEMBERS,
                },
            );
        }
    }
}

/// Adds loop `label`'s predictions to the report, each with its decision.
pub(super) fn record_predictions(
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
pub(super) fn static_rates(
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

/// Whether the loop will get line runs that leave the exit test out: every
/// cached structure is a restrict argument predicted to move forward in the
/// loop itself, nothing in the loop writes lines back early (fences,
/// barriers, calls, atomics), and the exit test is counted. (`LoopSlice`
/// checks the same once the accesses are routed, and the report says what
/// it found.)
pub(super) fn counted_runs_expected(
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
pub(super) fn cold_structures(cacheable_at: &[(u32, u32)]) -> BTreeSet<u32> {
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

/// When every structure of `cached` is predicted to stream whole
/// (`cost::streams_whole`), all by the same stride (their lines then end at
/// the same iteration, and a run uses every line it holds to its end): how
/// many of them are read.
pub(super) fn streams_alike(predictions: &[(u32, Prediction)], cached: &[u32]) -> Option<u32> {
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

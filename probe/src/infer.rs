//! Inference: cache and memory parameters from the probe's measurements.
//!
//! Chases follow the fine-grained P-chase method (Mei and Chu,
//! `benchmarking-gpu-memory-hierarchy.md` section 3): every access's latency
//! is classed as a hit or a miss by a threshold found in the latencies
//! themselves; capacity is where misses appear as the footprint grows; the
//! fill unit comes from the miss fraction by stride; line size, ways and sets
//! from the miss pattern just past the capacity; LRU from its periodicity.
//! Everything answers "not inferred" (None) rather than guess when the data
//! do not fit, as on caches with hashed set indexing.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::data::{
    ChasePath, ChaseRun, ProbeData, SharedStrideRun, ThroughputPoint, ThroughputTarget,
};

/// Sorted latencies further apart than this many cycles (and [`GAP_REL`] of
/// the lower one) start a new cluster: jitter is a few cycles.
const GAP_ABS: f64 = 10.0;
const GAP_REL: f64 = 0.12;
/// Clusters with less than this share of the samples are outliers.
const MIN_CLUSTER_SHARE: f64 = 0.01;
/// Levels under this multiple of the lowest still count as hits (near and
/// far L2 partitions differ by ~1.2x; a miss costs several times a hit).
const SAME_LEVEL_RATIO: f64 = 1.5;
/// A run misses when its miss fraction is this far above the sweep's noise
/// floor; the step fit in [`capacity`] absorbs the odd noisy run.
const MISS_TOLERANCE: f64 = 0.005;
/// A miss fraction at least this means every access misses.
const FULL_MISS: f64 = 0.85;
/// Fill-unit estimates from partial strides must agree within this factor.
const FILL_AGREEMENT: f64 = 1.4;
/// [`line_and_ways`]: the least agreement (shared misses over all misses,
/// predicted or seen) a model must reach, its lead over the next model, and
/// the fewest misses it must explain.
const MIN_FIT: f64 = 0.85;
const FIT_MARGIN: f64 = 0.05;
const MIN_EVIDENCE: usize = 4;
/// Largest line size and most ways [`line_and_ways`] considers.
const MAX_LINE: u64 = 4096;
const MAX_WAYS: u64 = 64;
/// A shared-memory run is slower (a bank conflict) beyond this ratio.
const CONFLICT_RATIO: f64 = 1.05;

/// Latency levels of a chase series: cluster centres (median of each),
/// ascending, in cycles, with outlier clusters left out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyLevels {
    pub levels: Vec<f64>,
    /// The lowest level: a hit in the cache under test.
    pub hit: f64,
    /// Latencies above this are misses. It lies in the first big gap
    /// (levels within 1.5x of the hit count as hits, e.g. near and far L2
    /// partitions), or 1.5x above the hits when nothing else shows.
    pub threshold: f64,
}

#[derive(Clone, Copy, Debug)]
struct Cluster {
    min: f64,
    max: f64,
    centre: f64,
    count: usize,
}

/// Splits sorted values wherever neighbours are further apart than jitter.
fn clusters(sorted: &[f64]) -> Vec<Cluster> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=sorted.len() {
        let split =
            i == sorted.len() || sorted[i] - sorted[i - 1] > GAP_ABS.max(GAP_REL * sorted[i - 1]);
        if split {
            let part = &sorted[start..i];
            out.push(Cluster {
                min: part[0],
                max: part[part.len() - 1],
                centre: part[part.len() / 2],
                count: part.len(),
            });
            start = i;
        }
    }
    out
}

/// Clusters holding at least 1% of the samples (two at least); the largest
/// one when none does.
fn significant(all: Vec<Cluster>, total: usize) -> Vec<Cluster> {
    let min_count = ((total as f64 * MIN_CLUSTER_SHARE).ceil() as usize)
        .max(2)
        .min(total);
    let kept: Vec<Cluster> = all
        .iter()
        .copied()
        .filter(|c| c.count >= min_count)
        .collect();
    if kept.is_empty() {
        all.into_iter()
            .max_by_key(|c| c.count)
            .into_iter()
            .collect()
    } else {
        kept
    }
}

/// Clusters a latency series into levels (sort, split at gaps wider than
/// jitter, drop clusters under 1% of the samples) and places the hit/miss
/// threshold. None for an empty series.
pub fn latency_levels(latencies: &[u32]) -> Option<LatencyLevels> {
    let mut sorted: Vec<f64> = latencies.iter().map(|&v| f64::from(v)).collect();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return None;
    }
    let kept = significant(clusters(&sorted), sorted.len());
    let hit = kept[0].centre;
    let last_hit = kept
        .iter()
        .rposition(|c| c.centre < hit * SAME_LEVEL_RATIO)
        .unwrap_or(0);
    let threshold = match kept.get(last_hit + 1) {
        Some(next) => (kept[last_hit].max + next.min) / 2.0,
        None => kept[last_hit].max * 1.5,
    };
    Some(LatencyLevels {
        levels: kept.iter().map(|c| c.centre).collect(),
        hit,
        threshold,
    })
}

fn misses(run: &ChaseRun, hit_threshold: f64) -> Vec<bool> {
    run.latencies
        .iter()
        .map(|&l| f64::from(l) > hit_threshold)
        .collect()
}

/// Share of the recorded accesses slower than `hit_threshold` (0 for an
/// empty run). Outliers count as misses: callers allow for noise.
pub fn miss_fraction(run: &ChaseRun, hit_threshold: f64) -> f64 {
    if run.latencies.is_empty() {
        return 0.0;
    }
    let missed = misses(run, hit_threshold).iter().filter(|&&m| m).count();
    missed as f64 / run.latencies.len() as f64
}

/// What a footprint sweep says about a cache's capacity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Capacity {
    /// The largest footprint whose timed pass hit; the next larger one
    /// measured missed (so the capacity lies below that one).
    Exact(u64),
    /// Even the largest footprint measured hit.
    AtLeast(u64),
    /// Even the smallest footprint measured missed.
    Below(u64),
    /// No runs to judge.
    Unknown,
}

impl Capacity {
    /// The capacity when the sweep brackets it.
    pub fn exact(self) -> Option<u64> {
        match self {
            Capacity::Exact(bytes) => Some(bytes),
            _ => None,
        }
    }

    /// For the summary: "256 KiB", "at least 1 MiB (all hit)", ...
    pub fn describe(self) -> String {
        match self {
            Capacity::Exact(b) => super::units::size(b),
            Capacity::AtLeast(b) => {
                format!("at least {} (every footprint hit)", super::units::size(b))
            }
            Capacity::Below(b) => {
                format!("below {} (every footprint missed)", super::units::size(b))
            }
            Capacity::Unknown => "not inferred".into(),
        }
    }
}

/// Index `i` that best splits `hit` into hits (before `i`) and misses (from
/// `i`): fewest runs on the wrong side, the smallest such `i` on ties.
fn best_split(hit: &[bool]) -> usize {
    let mut best = (usize::MAX, 0);
    for i in 0..=hit.len() {
        let wrong =
            hit[..i].iter().filter(|&&h| !h).count() + hit[i..].iter().filter(|&&h| h).count();
        if wrong < best.0 {
            best = (wrong, i);
        }
    }
    best.1
}

/// Capacity from a footprint sweep (one path, one stride, any order): a run
/// hits when its miss fraction stays within 0.5% plus three binomial
/// standard deviations of the sweep's noise floor; the capacity is the last
/// hitting footprint of the best hits-then-misses split, so one noisy run
/// does not move it. The floor is the pooled miss fraction of the runs that
/// miss at most 0.5% (a quantile of all runs would rise with the runs the
/// runner adds just above the capacity; pooling weighs long runs over
/// short, quantised ones).
pub fn capacity(footprint_runs: &[&ChaseRun], hit_threshold: f64) -> Capacity {
    // (footprint, miss fraction, accesses)
    let mut runs: Vec<(u64, f64, usize)> = footprint_runs
        .iter()
        .filter(|r| !r.latencies.is_empty())
        .map(|r| {
            (
                r.footprint_bytes,
                miss_fraction(r, hit_threshold),
                r.latencies.len(),
            )
        })
        .collect();
    if runs.is_empty() {
        return Capacity::Unknown;
    }
    runs.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let quiet = runs.iter().filter(|r| r.1 <= MISS_TOLERANCE);
    let (misses, accesses) = quiet.fold((0.0, 0usize), |(m, n), r| (m + r.1 * r.2 as f64, n + r.2));
    let floor = if accesses > 0 {
        misses / accesses as f64
    } else {
        0.0
    };
    let hit: Vec<bool> = runs
        .iter()
        .map(|r| {
            let sigma = (floor * (1.0 - floor) / r.2 as f64).sqrt();
            r.1 <= floor + MISS_TOLERANCE + 3.0 * sigma
        })
        .collect();
    match best_split(&hit) {
        0 => Capacity::Below(runs[0].0),
        i if i == runs.len() => Capacity::AtLeast(runs[i - 1].0),
        i => Capacity::Exact(runs[i - 1].0),
    }
}

/// For the runner, between sweeps: the capacity of one footprint sweep
/// (when it brackets one) and the hit threshold of its latencies.
pub fn capacity_estimate(footprint_runs: &[ChaseRun]) -> Option<(u64, f64)> {
    let pooled: Vec<u32> = footprint_runs
        .iter()
        .flat_map(|r| r.latencies.iter().copied())
        .collect();
    let threshold = latency_levels(&pooled)?.threshold;
    let refs: Vec<&ChaseRun> = footprint_runs.iter().collect();
    Some((capacity(&refs, threshold).exact()?, threshold))
}

/// Bytes one miss brings in, from runs at a footprint well past the
/// capacity with different strides: a miss fraction of `min(1, s / g)`
/// gives `g` as the smallest stride where (nearly) every access misses,
/// checked against `s / fraction` of each smaller stride. Without a fully
/// missing stride, the agreeing estimates' median rounded to a power of two
/// (above the largest stride). None when the strides disagree, or when even
/// the smallest stride always misses (the fill unit is no larger than it).
pub fn fill_granularity(stride_runs: &[&ChaseRun], hit_threshold: f64) -> Option<u64> {
    let mut points: Vec<(u64, f64)> = stride_runs
        .iter()
        .filter(|r| !r.latencies.is_empty())
        .map(|r| (r.stride_bytes, miss_fraction(r, hit_threshold)))
        .collect();
    points.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    // Strides past the first fully missing one touch fewer lines (at 512 B
    // a hashed cache may hold them all): they say nothing about the fill.
    let full = points.iter().position(|p| p.1 >= FULL_MISS);
    let estimates: Vec<f64> = points[..full.unwrap_or(points.len())]
        .iter()
        .filter(|p| p.1 > 0.0)
        .map(|p| p.0 as f64 / p.1)
        .collect();
    let agree = |g: f64| {
        estimates
            .iter()
            .all(|&e| e <= g * FILL_AGREEMENT && e >= g / FILL_AGREEMENT)
    };
    match full {
        Some(0) => None,
        Some(i) => agree(points[i].0 as f64).then_some(points[i].0),
        None => {
            let mut sorted = estimates.clone();
            sorted.sort_by(f64::total_cmp);
            let median = *sorted.get(sorted.len() / 2)?;
            let g = 2f64.powf(median.log2().round()) as u64;
            let largest = points.last()?.0;
            (agree(g as f64) && g > largest).then_some(g)
        }
    }
}

/// A set-associative LRU cache with `line % sets` indexing, and the unit a
/// miss fills.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Model {
    line: u64,
    ways: u64,
    sets: u64,
    fill: u64,
}

impl Model {
    /// Whether the timed pass (after a warm-up pass) misses byte `addr` of a
    /// chase at `footprint` and `stride`: a set holding more lines than ways
    /// loses every line each pass (cyclic access under LRU), and then each
    /// fill unit's first access misses.
    fn misses(&self, footprint: u64, stride: u64, addr: u64) -> bool {
        let lines = footprint.div_ceil(self.line);
        let set = (addr / self.line) % self.sets;
        let in_set = lines / self.sets + u64::from(set < lines % self.sets);
        in_set > self.ways && (stride >= self.fill || addr % self.fill < stride)
    }
}

/// Every model whose `line * ways * sets` is `capacity`, lines from the
/// largest stride (16 B at least) to 4 KiB, fill units from 4 B to the line.
fn models(capacity: u64, largest_stride: u64) -> Vec<Model> {
    let mut out = Vec::new();
    let mut line = largest_stride.max(16).next_power_of_two();
    while line <= MAX_LINE.min(capacity) {
        for ways in (1..=MAX_WAYS).chain([capacity / line]) {
            if ways == 0 || capacity % (ways * line) != 0 {
                continue;
            }
            let mut fill = 4;
            while fill <= line {
                let sets = capacity / (ways * line);
                out.push(Model {
                    line,
                    ways,
                    sets,
                    fill,
                });
                fill *= 2;
            }
        }
        line *= 2;
    }
    out
}

/// Agreement of a model with the seen misses: (shared misses / misses
/// predicted or seen, misses predicted).
fn fit(model: &Model, runs: &[(&ChaseRun, Vec<bool>)]) -> (f64, usize) {
    let (mut both, mut either, mut predicted) = (0usize, 0usize, 0usize);
    for (run, seen) in runs {
        for (&index, &seen) in run.indices.iter().zip(seen) {
            let addr = u64::from(index) * 4;
            let p = model.misses(run.footprint_bytes, run.stride_bytes, addr);
            both += usize::from(p && seen);
            either += usize::from(p || seen);
            predicted += usize::from(p);
        }
    }
    let score = if either == 0 {
        0.0
    } else {
        both as f64 / either as f64
    };
    (score, predicted)
}

/// Line size, ways and sets (in that order) from chases just past
/// `capacity` (the paper's N = C + k b runs, any strides up to a line): the
/// LRU, `line % sets` model that predicts which recorded accesses miss best,
/// when it explains at least 85% of the misses (noise allowed for) and
/// clearly better than any other line/ways pair. None when no model fits:
/// hashed set indexing, non-LRU replacement, too few misses, or an
/// ambiguous sweep; a None is the honest answer on such caches.
pub fn line_and_ways(
    overflow_runs: &[&ChaseRun],
    capacity: u64,
    hit_threshold: f64,
) -> Option<(u64, u64, u64)> {
    let runs: Vec<(&ChaseRun, Vec<bool>)> = overflow_runs
        .iter()
        .filter(|r| r.footprint_bytes > capacity && r.stride_bytes > 0)
        .map(|r| (*r, misses(r, hit_threshold)))
        .collect();
    let seen: usize = runs
        .iter()
        .map(|(_, m)| m.iter().filter(|&&x| x).count())
        .sum();
    let largest_stride = runs.iter().map(|(r, _)| r.stride_bytes).max()?;
    if seen < MIN_EVIDENCE || capacity == 0 {
        return None;
    }
    let mut best: BTreeMap<(u64, u64), (f64, usize, Model)> = BTreeMap::new();
    for model in models(capacity, largest_stride) {
        let (score, predicted) = fit(&model, &runs);
        let entry = best
            .entry((model.line, model.ways))
            .or_insert((-1.0, 0, model));
        if score > entry.0 {
            *entry = (score, predicted, model);
        }
    }
    let mut ranked: Vec<(f64, usize, Model)> = best.into_values().collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (score, predicted, model) = *ranked.first()?;
    let runner_up = ranked.get(1).map_or(0.0, |r| r.0);
    let clear = score >= MIN_FIT && score - runner_up >= FIT_MARGIN;
    (clear && predicted >= MIN_EVIDENCE).then_some((model.line, model.ways, model.sets))
}

/// Accesses per pass: where the series' first index comes round again,
/// provided the whole series repeats with that period.
fn pass_length(indices: &[u32]) -> Option<usize> {
    let first = *indices.first()?;
    let period = indices.iter().skip(1).position(|&i| i == first)? + 1;
    indices
        .iter()
        .enumerate()
        .all(|(k, &i)| i == indices[k % period])
        .then_some(period)
}

/// Whether replacement looks LRU: cyclic access under LRU misses the same
/// accesses every pass, so each recorded pass's hit/miss pattern must match
/// the previous one (allowing 1% of the pass plus a tenth of the misses,
/// and two, for noise). None when fewer than two passes were recorded or a
/// pass has (almost) no hits or no misses, which says nothing.
pub fn is_lru(run: &ChaseRun, hit_threshold: f64) -> Option<bool> {
    let period = pass_length(&run.indices)?;
    if run.latencies.len() < 2 * period {
        return None;
    }
    let missed = misses(run, hit_threshold);
    let passes: Vec<&[bool]> = missed.chunks_exact(period).collect();
    let total: usize = passes.iter().flat_map(|p| p.iter()).filter(|&&m| m).count();
    let mean = total as f64 / passes.len() as f64;
    if mean < 3.0 || mean > period as f64 - 3.0 {
        return None;
    }
    let allowance = 0.01 * period as f64 + 0.1 * mean + 2.0;
    let periodic = passes.windows(2).all(|pair| {
        let differ = pair[0].iter().zip(pair[1]).filter(|(a, b)| a != b).count();
        differ as f64 <= allowance
    });
    Some(periodic)
}

/// Shared memory as the stride runs show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedInference {
    /// Conflict-free latency: the 4-byte stride-1 run (else the fastest).
    pub latency_cycles: f64,
    /// Banks and their width: the data fix their product (the stride in
    /// bytes past which conflicts stop growing); the split is read from the
    /// first conflicting 4-byte stride (2: 4-byte banks; 4: 8-byte banks,
    /// Kepler's 8-byte mode). None when the runs show no clean saturation
    /// or the two word sizes disagree.
    pub banks: Option<u32>,
    pub bank_bytes: Option<u32>,
    /// (word bytes, stride in words, latency / conflict-free latency), per run.
    pub conflict_ways: Vec<(u32, u32, f64)>,
}

/// Slowdown by power-of-two stride for one word size.
fn slowdowns(ways: &[(u32, u32, f64)], word: u32) -> BTreeMap<u32, f64> {
    ways.iter()
        .filter(|w| w.0 == word && w.1.is_power_of_two())
        .map(|w| (w.1, w.2))
        .collect()
}

/// The power-of-two stride past which the slowdown stops growing: it grew
/// into it, and twice it is no slower.
fn saturation(by_stride: &BTreeMap<u32, f64>) -> Option<u32> {
    by_stride.iter().find_map(|(&s, &r)| {
        let before = by_stride.get(&(s / 2)).copied().filter(|_| s > 1)?;
        let after = *by_stride.get(&(s * 2))?;
        (r > before * CONFLICT_RATIO && after <= r * CONFLICT_RATIO).then_some(s)
    })
}

/// The smallest power-of-two stride slower than stride 1.
fn first_conflict(by_stride: &BTreeMap<u32, f64>) -> Option<u32> {
    let base = *by_stride.get(&1)?;
    by_stride
        .iter()
        .find(|(_, &r)| r > base * CONFLICT_RATIO)
        .map(|(&s, _)| s)
}

/// Conflict-free latency, slowdown per run, and banks (see
/// [`SharedInference`]). None without runs or with a non-positive latency.
pub fn infer_shared(runs: &[SharedStrideRun]) -> Option<SharedInference> {
    let unit = runs
        .iter()
        .find(|r| r.word_bytes == 4 && r.stride_words == 1)
        .or_else(|| {
            runs.iter()
                .min_by(|a, b| a.cycles_per_access.total_cmp(&b.cycles_per_access))
        })?;
    let base = unit.cycles_per_access;
    if base <= 0.0 || !base.is_finite() {
        return None;
    }
    let mut conflict_ways: Vec<(u32, u32, f64)> = runs
        .iter()
        .map(|r| (r.word_bytes, r.stride_words, r.cycles_per_access / base))
        .collect();
    conflict_ways.sort_by_key(|w| (w.0, w.1));
    let four = slowdowns(&conflict_ways, 4);
    let eight = slowdowns(&conflict_ways, 8);
    let span = saturation(&four).map(|s| s * 4);
    let eight_agrees = eight.is_empty() || saturation(&eight).map(|s| s * 8) == span;
    let bank_bytes = match first_conflict(&four) {
        Some(2) => Some(4),
        Some(4) => Some(8),
        _ => None,
    }
    .filter(|_| span.is_some() && eight_agrees);
    let banks = bank_bytes.zip(span).map(|(w, s)| s / w);
    Some(SharedInference {
        latency_cycles: base,
        banks,
        bank_bytes,
        conflict_ways,
    })
}

/// Peak and saturation of one throughput sweep (one target, one coalescing).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThroughputInference {
    pub target: ThroughputTarget,
    pub coalescing: u32,
    pub peak_gbps: f64,
    pub peak_blocks: u32,
    pub peak_threads: u32,
    /// At the most blocks measured, the fewest threads per block reaching
    /// 90% of that block count's best: how many threads it takes to
    /// saturate the target.
    pub saturating_threads: Option<u32>,
}

fn target_rank(t: ThroughputTarget) -> u8 {
    match t {
        ThroughputTarget::L2 => 0,
        ThroughputTarget::Dram => 1,
        ThroughputTarget::Shared => 2,
    }
}

fn throughput_of(points: &[&ThroughputPoint]) -> Option<ThroughputInference> {
    let peak = points.iter().max_by(|a, b| a.gbps().total_cmp(&b.gbps()))?;
    let most_blocks = points.iter().map(|p| p.blocks).max()?;
    let at_most: Vec<&&ThroughputPoint> =
        points.iter().filter(|p| p.blocks == most_blocks).collect();
    let best = at_most.iter().map(|p| p.gbps()).fold(0.0, f64::max);
    let saturating_threads = at_most
        .iter()
        .filter(|p| best > 0.0 && p.gbps() >= 0.9 * best)
        .map(|p| p.threads)
        .min();
    Some(ThroughputInference {
        target: peak.target,
        coalescing: peak.coalescing,
        peak_gbps: peak.gbps(),
        peak_blocks: peak.blocks,
        peak_threads: peak.threads,
        saturating_threads,
    })
}

/// One inference per (target, coalescing), ordered L2, DRAM, shared, then
/// by coalescing.
pub fn infer_throughput(points: &[ThroughputPoint]) -> Vec<ThroughputInference> {
    let mut groups: BTreeMap<(u8, u32), Vec<&ThroughputPoint>> = BTreeMap::new();
    for p in points {
        groups
            .entry((target_rank(p.target), p.coalescing))
            .or_default()
            .push(p);
    }
    groups.values().filter_map(|g| throughput_of(g)).collect()
}

/// What the chases through one path show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CacheInference {
    pub path: ChasePath,
    pub hit_cycles: f64,
    /// Latency levels over all the path's chases (hit, then L2, DRAM, ...).
    pub levels: Vec<f64>,
    pub capacity: Capacity,
    /// Bytes a miss brings in (a sector).
    pub fill_bytes: Option<u64>,
    /// Tag granularity and associativity, when an LRU modulo-indexed model
    /// fits the overflow runs.
    pub line_bytes: Option<u64>,
    pub ways: Option<u64>,
    pub sets: Option<u64>,
    pub lru: Option<bool>,
}

/// Everything inferred from one probe run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Inferred {
    pub caches: Vec<CacheInference>,
    pub shared: Option<SharedInference>,
    pub throughput: Vec<ThroughputInference>,
}

/// The footprint sweep: runs at the stride with the most distinct
/// footprints (the smaller stride on ties).
fn footprint_sweep<'a>(runs: &[&'a ChaseRun]) -> Vec<&'a ChaseRun> {
    let mut by_stride: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
    for r in runs {
        by_stride
            .entry(r.stride_bytes)
            .or_default()
            .insert(r.footprint_bytes);
    }
    let Some((&stride, _)) = by_stride
        .iter()
        .max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(a.0)))
    else {
        return Vec::new();
    };
    runs.iter()
        .copied()
        .filter(|r| r.stride_bytes == stride)
        .collect()
}

/// The stride sweep: runs at the footprint with the most distinct strides
/// (three at least; the larger footprint on ties).
fn stride_sweep<'a>(runs: &[&'a ChaseRun]) -> Vec<&'a ChaseRun> {
    let mut by_footprint: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
    for r in runs {
        by_footprint
            .entry(r.footprint_bytes)
            .or_default()
            .insert(r.stride_bytes);
    }
    let Some((&footprint, strides)) = by_footprint.iter().max_by_key(|e| e.1.len()) else {
        return Vec::new();
    };
    if strides.len() < 3 {
        return Vec::new();
    }
    runs.iter()
        .copied()
        .filter(|r| r.footprint_bytes == footprint)
        .collect()
}

/// LRU verdict over every run that says something: the majority, None on a
/// tie or when none does.
fn lru_verdict(runs: &[&ChaseRun], hit_threshold: f64) -> Option<bool> {
    let verdicts: Vec<bool> = runs
        .iter()
        .filter_map(|r| is_lru(r, hit_threshold))
        .collect();
    let yes = verdicts.iter().filter(|&&v| v).count();
    let no = verdicts.len() - yes;
    (yes != no).then_some(yes > no)
}

/// One path's inference. The runner tags nothing, so runs are classed by
/// footprint and stride: the footprint sweep (most footprints at one
/// stride) gives the capacity; the stride sweep (most strides at one
/// footprint) the fill unit; every run with a footprint in (C, 1.0625 C]
/// counts as an overflow run for line, ways and sets; every run with two
/// recorded passes votes on LRU. Levels and threshold come from all the
/// path's latencies together.
fn infer_cache(path: ChasePath, runs: &[&ChaseRun]) -> Option<CacheInference> {
    let pooled: Vec<u32> = runs
        .iter()
        .flat_map(|r| r.latencies.iter().copied())
        .collect();
    let levels = latency_levels(&pooled)?;
    let threshold = levels.threshold;
    let capacity = capacity(&footprint_sweep(runs), threshold);
    let fill_bytes = fill_granularity(&stride_sweep(runs), threshold);
    let geometry = capacity.exact().and_then(|c| {
        let overflow: Vec<&ChaseRun> = runs
            .iter()
            .copied()
            .filter(|r| r.footprint_bytes > c && r.footprint_bytes <= c + c / 16)
            .collect();
        line_and_ways(&overflow, c, threshold)
    });
    Some(CacheInference {
        path,
        hit_cycles: levels.hit,
        levels: levels.levels,
        capacity,
        fill_bytes,
        line_bytes: geometry.map(|g| g.0),
        ways: geometry.map(|g| g.1),
        sets: geometry.map(|g| g.2),
        lru: lru_verdict(runs, threshold),
    })
}

/// Everything the data support: one [`CacheInference`] per path with
/// chases (in [`ChasePath::ALL`] order), shared memory, throughput.
pub fn infer(data: &ProbeData) -> Inferred {
    let caches = ChasePath::ALL
        .iter()
        .filter_map(|&path| {
            let runs: Vec<&ChaseRun> = data.chases.iter().filter(|r| r.path == path).collect();
            infer_cache(path, &runs)
        })
        .collect();
    Inferred {
        caches,
        shared: infer_shared(&data.shared_strides),
        throughput: infer_throughput(&data.throughput),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache_model::{
        chase, shared_runs, throughput_curve, CacheConfig, ChaseSpec, Replacement, Timing,
    };

    const KIB: u64 = 1024;
    const RECORD: usize = 4096;

    fn run(
        cfg: &CacheConfig,
        timing: &Timing,
        stride: u64,
        footprint: u64,
        passes: u64,
    ) -> ChaseRun {
        let spec = ChaseSpec {
            path: ChasePath::L1,
            stride_bytes: stride,
            footprint_bytes: footprint,
            timed_passes: passes,
            record_limit: RECORD,
        };
        chase(cfg, &spec, timing, footprint * 31 + stride)
    }

    /// What the runner records for one cache: footprints at 32 B (doubling
    /// from 1 KiB to 8 C, and 1 to 4 KiB under C), strides 4 to 512 B at
    /// 4 C, and C + 32 k B for k = 1..=16 at 32 B, two passes each.
    fn sweeps(cfg: &CacheConfig, timing: &Timing) -> Vec<ChaseRun> {
        let c = cfg.capacity;
        let mut runs = Vec::new();
        let mut f = KIB;
        while f <= 8 * c {
            runs.push(run(cfg, timing, 32, f, 1));
            f *= 2;
        }
        for k in 1..=4 {
            runs.push(run(cfg, timing, 32, c - k * KIB, 1));
        }
        for s in [4, 8, 16, 32, 64, 128, 256, 512] {
            runs.push(run(cfg, timing, s, 4 * c, 1));
        }
        for k in 1..=16 {
            runs.push(run(cfg, timing, 32, c + 32 * k, 2));
        }
        runs
    }

    fn timing(noisy: bool) -> Timing {
        let t = if noisy {
            Timing::noisy(35, 290)
        } else {
            Timing::clean(35, 290)
        };
        Timing {
            far_miss: Some(350),
            ..t
        }
    }

    fn small() -> CacheConfig {
        CacheConfig::lru(16 * KIB, 128, 128, 4)
    }

    fn sectored() -> CacheConfig {
        CacheConfig::lru(32 * KIB, 128, 32, 4)
    }

    fn hashed() -> CacheConfig {
        CacheConfig {
            hashed_sets: true,
            ..sectored()
        }
    }

    fn random() -> CacheConfig {
        CacheConfig {
            replacement: Replacement::Random,
            ..small()
        }
    }

    fn threshold(runs: &[ChaseRun]) -> f64 {
        let all: Vec<u32> = runs.iter().flat_map(|r| r.latencies.clone()).collect();
        latency_levels(&all).unwrap().threshold
    }

    fn select(runs: &[ChaseRun], keep: impl Fn(&ChaseRun) -> bool) -> Vec<&ChaseRun> {
        runs.iter().filter(|r| keep(r)).collect()
    }

    fn series(parts: &[(u32, usize)], seed: u64) -> Vec<u32> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        parts
            .iter()
            .flat_map(|&(level, n)| vec![level; n])
            .map(|l| l + rng.random_range(0..5))
            .collect()
    }

    #[test]
    fn one_level_gets_a_threshold_above_it() {
        let l = latency_levels(&series(&[(35, 2000)], 1)).unwrap();
        assert_eq!(l.levels.len(), 1);
        assert!((35.0..40.0).contains(&l.hit));
        assert!(l.threshold > 40.0 && l.threshold < 80.0, "{l:?}");
        assert_eq!(latency_levels(&[]), None);
    }

    #[test]
    fn two_levels_split_between_hit_and_miss() {
        let l = latency_levels(&series(&[(35, 900), (300, 100)], 2)).unwrap();
        assert_eq!(l.levels.len(), 2);
        assert!(l.threshold > 40.0 && l.threshold < 300.0, "{l:?}");
        assert!((299.0..305.0).contains(&l.levels[1]));
    }

    #[test]
    fn near_and_far_partitions_count_as_one_kind_of_hit() {
        let l1 = series(&[(35, 600), (260, 200), (320, 200), (600, 100)], 3);
        let l = latency_levels(&l1).unwrap();
        assert_eq!(l.levels.len(), 4, "{l:?}");
        assert!(l.threshold > 40.0 && l.threshold < 260.0, "{l:?}");
        // Through L2 only: both partitions hit, DRAM misses.
        let l2 = latency_levels(&series(&[(260, 400), (320, 400), (600, 200)], 4)).unwrap();
        assert!((259.0..266.0).contains(&l2.hit));
        assert!(l2.threshold > 325.0 && l2.threshold < 600.0, "{l2:?}");
    }

    #[test]
    fn outliers_are_not_levels() {
        let mut s = series(&[(35, 3000)], 5);
        for i in 0..9 {
            s[i * 300] = 2000 + 500 * i as u32;
        }
        let l = latency_levels(&s).unwrap();
        assert_eq!(l.levels.len(), 1, "{l:?}");
        assert!(l.threshold < 80.0);
        s.extend(series(&[(290, 150)], 6));
        let l = latency_levels(&s).unwrap();
        assert_eq!(l.levels.len(), 2, "{l:?}");
        assert!(l.threshold > 40.0 && l.threshold < 290.0);
    }

    fn capacity_of(cfg: &CacheConfig, noisy: bool) -> (Capacity, Vec<ChaseRun>, f64) {
        let runs = sweeps(cfg, &timing(noisy));
        let t = threshold(&runs);
        let sweep = select(&runs, |r| {
            r.stride_bytes == 32 && r.footprint_bytes != 4 * cfg.capacity
        });
        (capacity(&sweep, t), runs, t)
    }

    #[test]
    fn capacity_of_lru_caches_clean_and_noisy() {
        for noisy in [false, true] {
            assert_eq!(
                capacity_of(&small(), noisy).0,
                Capacity::Exact(16 * KIB),
                "{noisy}"
            );
            assert_eq!(
                capacity_of(&sectored(), noisy).0,
                Capacity::Exact(32 * KIB),
                "{noisy}"
            );
        }
        // Random replacement misses rarely just past the capacity (one line
        // of the set at a time), so the first overflow steps can pass as hits.
        let c = capacity_of(&random(), true).0.exact().expect("bracketed");
        assert!((16 * KIB..=16 * KIB + 512).contains(&c), "{c}");
    }

    #[test]
    fn capacity_of_a_hashed_cache_is_close() {
        let c = capacity_of(&hashed(), true).0.exact().expect("bracketed");
        assert!((32 * KIB..=32 * KIB + 512).contains(&c), "{c}");
    }

    #[test]
    fn capacity_outside_the_sweep_is_a_bound() {
        let cfg = small();
        let t = timing(true);
        let below: Vec<ChaseRun> = [1, 2, 4, 8].map(|k| run(&cfg, &t, 32, k * KIB, 1)).into();
        let above: Vec<ChaseRun> = [32, 64, 128].map(|k| run(&cfg, &t, 32, k * KIB, 1)).into();
        fn refs(v: &[ChaseRun]) -> Vec<&ChaseRun> {
            v.iter().collect()
        }
        assert_eq!(capacity(&refs(&below), 150.0), Capacity::AtLeast(8 * KIB));
        assert_eq!(capacity(&refs(&above), 150.0), Capacity::Below(32 * KIB));
        assert_eq!(capacity(&[], 150.0), Capacity::Unknown);
        assert_eq!(
            Capacity::AtLeast(8 * KIB).describe(),
            "at least 8 KiB (every footprint hit)"
        );
        assert_eq!(Capacity::Exact(256 * KIB).describe(), "256 KiB");
    }

    #[test]
    fn capacity_estimate_for_the_runner() {
        let cfg = sectored();
        let runs: Vec<ChaseRun> = [8, 16, 24, 28, 32, 36, 48, 64]
            .map(|k| run(&cfg, &timing(true), 32, k * KIB, 1))
            .into();
        let (c, t) = capacity_estimate(&runs).unwrap();
        assert_eq!(c, 32 * KIB);
        assert!(t > 40.0 && t < 290.0);
        assert_eq!(capacity_estimate(&runs[..3]), None);
    }

    #[test]
    fn fill_unit_is_the_sector() {
        for (cfg, fill) in [
            (small(), 128),
            (sectored(), 32),
            (hashed(), 32),
            (random(), 128),
        ] {
            let runs = sweeps(&cfg, &timing(true));
            let t = threshold(&runs);
            let strided = select(&runs, |r| r.footprint_bytes == 4 * cfg.capacity);
            assert_eq!(fill_granularity(&strided, t), Some(fill), "{cfg:?}");
            // Without the strides below the fill unit nothing says how big it is.
            let coarse = select(&runs, |r| {
                r.footprint_bytes == 4 * cfg.capacity && r.stride_bytes >= fill
            });
            assert_eq!(fill_granularity(&coarse, t), None);
        }
    }

    fn geometry(cfg: &CacheConfig, noisy: bool) -> Option<(u64, u64, u64)> {
        let runs = sweeps(cfg, &timing(noisy));
        let t = threshold(&runs);
        let c = cfg.capacity;
        let overflow = select(&runs, |r| {
            r.footprint_bytes > c && r.footprint_bytes <= c + c / 2
        });
        line_and_ways(&overflow, c, t)
    }

    #[test]
    fn line_ways_and_sets_of_lru_caches() {
        for noisy in [false, true] {
            assert_eq!(geometry(&small(), noisy), Some((128, 4, 32)), "{noisy}");
            assert_eq!(geometry(&sectored(), noisy), Some((128, 4, 64)), "{noisy}");
        }
        let six_ways = CacheConfig::lru(24 * KIB, 128, 32, 6);
        assert_eq!(geometry(&six_ways, true), Some((128, 6, 32)));
        let wide = CacheConfig::lru(64 * KIB, 256, 64, 8);
        assert_eq!(geometry(&wide, true), Some((256, 8, 32)));
    }

    #[test]
    fn line_and_ways_refuse_hashed_and_random_caches() {
        assert_eq!(geometry(&hashed(), false), None);
        assert_eq!(geometry(&hashed(), true), None);
        assert_eq!(geometry(&random(), false), None);
        assert_eq!(geometry(&random(), true), None);
        assert_eq!(line_and_ways(&[], 16 * KIB, 150.0), None);
    }

    #[test]
    fn lru_shows_as_periodic_misses() {
        let t = timing(true);
        let past = 16 * KIB + 8 * 128;
        assert_eq!(is_lru(&run(&small(), &t, 32, past, 3), 150.0), Some(true));
        assert_eq!(is_lru(&run(&random(), &t, 32, past, 3), 150.0), Some(false));
        // All hits, or a single pass, say nothing.
        assert_eq!(is_lru(&run(&small(), &t, 32, 8 * KIB, 3), 150.0), None);
        assert_eq!(is_lru(&run(&small(), &t, 32, past, 1), 150.0), None);
    }

    #[test]
    fn shared_banks_of_the_32_by_4_model() {
        let strides: Vec<u32> = (1..=64).collect();
        let s = infer_shared(&shared_runs(&[4, 8], &strides, 30.0, 2.0)).unwrap();
        assert_eq!(s.latency_cycles, 30.0);
        assert_eq!((s.banks, s.bank_bytes), (Some(32), Some(4)));
        let worst = s
            .conflict_ways
            .iter()
            .find(|w| (w.0, w.1) == (4, 32))
            .unwrap();
        assert!((worst.2 - 92.0 / 30.0).abs() < 1e-9);
        let odd = s
            .conflict_ways
            .iter()
            .find(|w| (w.0, w.1) == (4, 7))
            .unwrap();
        assert_eq!(odd.2, 1.0);
        // Too few strides to see the slowdown stop: no bank count.
        let short = infer_shared(&shared_runs(&[4], &[1, 2, 4, 8, 16], 30.0, 2.0)).unwrap();
        assert_eq!((short.banks, short.bank_bytes), (None, None));
        assert_eq!(infer_shared(&[]), None);
    }

    #[test]
    fn shared_banks_of_eight_bytes() {
        // Kepler's 8-byte mode: 32 banks of 8 B; 4-byte stride 2 is free.
        let ways = |s: u32| (s / 2).clamp(1, 32);
        let runs: Vec<SharedStrideRun> = [1, 2, 4, 8, 16, 32, 64, 128]
            .iter()
            .map(|&s| SharedStrideRun {
                word_bytes: 4,
                stride_words: s,
                cycles_per_access: 30.0 + 2.0 * f64::from(ways(s) - 1),
            })
            .collect();
        let s = infer_shared(&runs).unwrap();
        assert_eq!((s.banks, s.bank_bytes), (Some(32), Some(8)));
    }

    #[test]
    fn throughput_peak_and_saturation() {
        let blocks = [1, 66, 132];
        let threads = [32, 64, 128, 256, 512, 768, 1024];
        let mut points = throughput_curve(
            ThroughputTarget::Dram,
            8,
            &blocks,
            &threads,
            3000.0,
            20000.0,
        );
        points.extend(throughput_curve(
            ThroughputTarget::L2,
            4,
            &blocks,
            &threads,
            9000.0,
            4000.0,
        ));
        let inferred = infer_throughput(&points);
        assert_eq!(inferred.len(), 2);
        let (l2, dram) = (&inferred[0], &inferred[1]);
        assert_eq!((l2.target, l2.coalescing), (ThroughputTarget::L2, 4));
        assert_eq!((dram.peak_blocks, dram.peak_threads), (132, 1024));
        assert!((dram.peak_gbps - 3000.0 * 135168.0 / 155168.0).abs() < 1e-6);
        // 132 x t reaches 90% of 132 x 1024 from t = 550 on: 768 measured.
        assert_eq!(dram.saturating_threads, Some(768));
        // L2 saturates sooner: 90% of its best from t = 256 on.
        assert_eq!(l2.saturating_threads, Some(256));
    }

    #[test]
    fn infer_reads_a_whole_probe_run() {
        let mut chases = sweeps(&sectored(), &timing(true));
        let mut l2_runs = sweeps(&hashed(), &timing(true));
        for r in &mut l2_runs {
            r.path = ChasePath::L2;
        }
        chases.extend(l2_runs);
        let data = ProbeData {
            chases,
            shared_strides: shared_runs(&[4, 8], &[1, 2, 4, 8, 16, 32, 64], 30.0, 2.0),
            throughput: throughput_curve(
                ThroughputTarget::Shared,
                8,
                &[1, 132],
                &[32, 1024],
                9000.0,
                4000.0,
            ),
            ..ProbeData::default()
        };
        let inferred = infer(&data);
        assert_eq!(inferred.caches.len(), 2);
        let l1 = &inferred.caches[0];
        assert_eq!(l1.path, ChasePath::L1);
        assert!((35.0..42.0).contains(&l1.hit_cycles));
        assert_eq!(l1.levels.len(), 3, "{:?}", l1.levels);
        assert_eq!(l1.capacity, Capacity::Exact(32 * KIB));
        assert_eq!(l1.fill_bytes, Some(32));
        assert_eq!(
            (l1.line_bytes, l1.ways, l1.sets),
            (Some(128), Some(4), Some(64))
        );
        assert_eq!(l1.lru, Some(true));
        let l2 = &inferred.caches[1];
        assert_eq!(
            (l2.path, l2.fill_bytes, l2.line_bytes),
            (ChasePath::L2, Some(32), None)
        );
        assert_eq!(inferred.shared.as_ref().unwrap().banks, Some(32));
        assert_eq!(inferred.throughput.len(), 1);
        let json = serde_json::to_string(&inferred).unwrap();
        let back: Inferred = serde_json::from_str(&json).unwrap();
        // Floats may come back a last digit off; the rest exactly.
        assert_eq!(back.caches[0].capacity, Capacity::Exact(32 * KIB));
        assert_eq!(back.caches[1].line_bytes, None);
        assert_eq!(back.shared.map(|s| s.bank_bytes), Some(Some(4)));
        assert!(json.contains(r#""capacity":{"exact":32768}"#), "{json}");
    }
}

//! Runs a plan on the GPU: the footprint sweeps first, then, per path, the
//! fill-unit and overflow sweeps placed by what the footprints showed, then
//! shared-memory strides and the throughput sweeps.

use indicatif::ProgressBar;

use super::data::{
    ChasePath, ChaseRun, DeviceInfo, ProbeData, SharedStrideRun, ThroughputPoint, ThroughputRequest,
};
use super::infer;
use super::plan::Plan;
use sl1_gpu_base::device::GpuError;

/// What the runner measures with: the GPU (`ProbeGpu`), or a simulated one
/// (`SimulatedGpu` of `simulate`) that lets tests run the whole plan.
pub trait Device {
    fn device_info(&self) -> Result<DeviceInfo, GpuError>;
    fn chase(
        &self,
        path: ChasePath,
        stride_bytes: u64,
        footprint_bytes: u64,
        record: usize,
    ) -> Result<ChaseRun, GpuError>;
    fn shared_stride(
        &self,
        word_bytes: u32,
        stride_words: u32,
    ) -> Result<SharedStrideRun, GpuError>;
    fn throughput(&self, request: ThroughputRequest) -> Result<ThroughputPoint, GpuError>;
}

/// Measures everything `plan` asks for; `bar` advances once per run.
pub fn run(
    gpu: &impl Device,
    plan: &Plan,
    quick: bool,
    bar: &ProgressBar,
) -> Result<ProbeData, GpuError> {
    let mut data = ProbeData {
        device: gpu.device_info()?,
        mode: if quick { "quick" } else { "full" }.to_string(),
        ..ProbeData::default()
    };
    for sweep in &plan.footprints {
        let mut runs = Vec::new();
        for &footprint in &sweep.footprints {
            bar.set_message(format!("{} chase, {} B", sweep.path.label(), footprint));
            runs.push(gpu.chase(sweep.path, sweep.stride_bytes, footprint, plan.record)?);
            bar.inc(1);
        }
        if sweep.path != ChasePath::Shared {
            let adaptive = adaptive_runs(gpu, plan, sweep.path, &runs, bar)?;
            runs.extend(adaptive);
        }
        data.chases.extend(runs);
    }
    for &word in &plan.shared_word_bytes {
        for &stride in &plan.shared_strides {
            bar.set_message(format!("shared memory, {word} B words, stride {stride}"));
            data.shared_strides.push(gpu.shared_stride(word, stride)?);
            bar.inc(1);
        }
    }
    for sweep in &plan.throughput {
        for &coalescing in &sweep.coalescing {
            for &blocks in &sweep.blocks {
                for &threads in &sweep.threads {
                    bar.set_message(format!(
                        "{} throughput, {blocks}x{threads}, {coalescing}-way",
                        sweep.target.label()
                    ));
                    data.throughput.push(gpu.throughput(ThroughputRequest {
                        target: sweep.target,
                        blocks,
                        threads,
                        coalescing,
                        working_set_bytes: sweep.working_set_bytes,
                        iterations: sweep.iterations,
                    })?);
                    bar.inc(1);
                }
            }
        }
    }
    Ok(data)
}

/// The fill-unit sweep (strides at four times the capacity) and the
/// overflow sweep (one fill unit at a time past the capacity) of one path,
/// placed by the capacity its footprint sweep shows. Nothing when the sweep
/// shows no capacity (all hits or all misses).
fn adaptive_runs(
    gpu: &impl Device,
    plan: &Plan,
    path: ChasePath,
    footprint_runs: &[ChaseRun],
    bar: &ProgressBar,
) -> Result<Vec<ChaseRun>, GpuError> {
    let skipped = u64::from(plan.overflow_steps) + plan.fill_strides.len() as u64;
    let Some((coarse, threshold)) = infer::capacity_estimate(footprint_runs) else {
        bar.inc(skipped);
        return Ok(Vec::new());
    };
    let mut runs = refine_capacity(gpu, plan, footprint_runs, coarse, threshold, bar)?;
    let capacity = {
        let all: Vec<&ChaseRun> = footprint_runs.iter().chain(&runs).collect();
        infer::capacity(&all, threshold).exact().unwrap_or(coarse)
    };
    let wide = capacity * 4;
    for &stride in &plan.fill_strides {
        bar.set_message(format!("{} fill unit, stride {stride} B", path.label()));
        runs.push(gpu.chase(path, stride, wide, plan.record)?);
        bar.inc(1);
    }
    let strided: Vec<&ChaseRun> = runs.iter().filter(|r| r.footprint_bytes == wide).collect();
    let step = infer::fill_granularity(&strided, threshold).unwrap_or(32);
    for k in 1..=u64::from(plan.overflow_steps) {
        let footprint = capacity + k * step;
        bar.set_message(format!("{} overflow, {footprint} B", path.label()));
        runs.push(gpu.chase(path, step, footprint, plan.record)?);
        bar.inc(1);
    }
    Ok(runs)
}

/// Most bisection steps between the last hitting and the first missing
/// footprint of a sweep.
const MAX_REFINE_STEPS: u32 = 16;

/// Bisects between the capacity a coarse footprint sweep shows (the largest
/// footprint that hit) and the next footprint it ran (which missed), down
/// to the sweep's stride: the overflow sweep needs the capacity to a line.
fn refine_capacity(
    gpu: &impl Device,
    plan: &Plan,
    sweep: &[ChaseRun],
    coarse: u64,
    threshold: f64,
    bar: &ProgressBar,
) -> Result<Vec<ChaseRun>, GpuError> {
    let Some(first) = sweep.first() else {
        return Ok(Vec::new());
    };
    let (path, stride) = (first.path, first.stride_bytes);
    let mut hit = coarse;
    let Some(mut miss) = sweep
        .iter()
        .map(|r| r.footprint_bytes)
        .filter(|&f| f > coarse)
        .min()
    else {
        return Ok(Vec::new());
    };
    // What the hitting runs of the sweep miss anyway (outliers, noise).
    let mut floor: Vec<f64> = sweep
        .iter()
        .filter(|r| r.footprint_bytes <= coarse)
        .map(|r| infer::miss_fraction(r, threshold))
        .collect();
    floor.sort_by(f64::total_cmp);
    let floor = floor.get(floor.len() / 2).copied().unwrap_or(0.0);
    let mut runs = Vec::new();
    for _ in 0..MAX_REFINE_STEPS {
        let mid = hit + (miss - hit) / 2 / stride * stride;
        if mid <= hit {
            break;
        }
        bar.inc_length(1);
        bar.set_message(format!("{} capacity, {mid} B", path.label()));
        let run = gpu.chase(path, stride, mid, plan.record)?;
        bar.inc(1);
        if infer::miss_fraction(&run, threshold) <= floor + REFINE_MISS_TOLERANCE {
            hit = mid;
        } else {
            miss = mid;
        }
        runs.push(run);
    }
    Ok(runs)
}

/// Share of misses over the sweep's noise floor a footprint may show and
/// still count as fitting: one set overflowing by a line in a small cache
/// shows more than this, in a large one it may not (the capacity is then
/// found to within a few lines).
const REFINE_MISS_TOLERANCE: f64 = 0.005;

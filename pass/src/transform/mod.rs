//! The S-L1 transformation of one kernel (paper section 3.2): every main loop is
//! sliced into a monitoring clone that simulates a one-line cache per data
//! structure and leaves after THRESHOLD accesses, a decision, and the original
//! loop with its accesses routed through the cache; coherence is kept at fences,
//! barriers, calls and atomics, and the cache is flushed on every loop exit.

use std::collections::{BTreeMap, BTreeSet};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::module::{Linkage, Module};
use inkwell::types::AnyTypeEnum;
use inkwell::values::{AsValueRef, FunctionValue};
use inkwell::AddressSpace;

use crate::analysis::accesses::{Access, Base};
use crate::analysis::analyse_kernel;
use crate::edit;
use crate::options::Options;
use crate::runtime::{Runtime, ADDRSPACE_SHARED};

pub mod cost;
mod decide;
mod lanes;
mod line_runs;
mod local_nests;
pub mod predict;
mod reports;
mod sites;
mod slice;
mod state;
pub mod stats;

use predict::Prediction;
pub use predict::PredictionReport;
pub use reports::{
    DirectAccess, LaneTestReport, LaunchBytes, LineRunsReport, RereadReport, TransformReport,
};
use sites::uncacheable_reason;
use slice::LoopSlice;
use state::{
    const_int, i32_type, new_state, read_only_companion, store_before_entry_end, State, StaticRate,
};
use stats::Stats;

pub use crate::options::STATIC_SHARED_LIMIT;

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

/// Static shared memory `kernel` may use (our own buffers excluded), and
/// whether it may use dynamic shared memory: the shared globals used by the
/// kernel or by any function that is not a kernel (it may call them).
fn kernel_shared_memory(module: &Module<'_>, kernel: FunctionValue<'_>) -> (u64, bool) {
    let kernels: Vec<LLVMValueRef> = crate::analysis::find_kernels(module)
        .iter()
        .map(|k| k.as_value_ref())
        .collect();
    let mine = kernel.as_value_ref();
    let mut bytes = 0;
    let mut dynamic = false;
    for global in module.get_globals() {
        let name = global.get_name().to_string_lossy().into_owned();
        if name.starts_with("sl1.lines.") {
            continue;
        }
        let ptr = global.as_pointer_value();
        if ptr.get_type().get_address_space() != AddressSpace::from(ADDRSPACE_SHARED) {
            continue;
        }
        let used_here = crate::ir::using_functions(global.as_value_ref())
            .into_iter()
            .any(|f| f.is_none_or(|f| f == mine || !kernels.contains(&f)));
        if !used_here {
            continue;
        }
        let ty = global.get_value_type();
        let size = match ty {
            AnyTypeEnum::ArrayType(a) if a.is_empty() => {
                dynamic = true;
                0
            }
            // SAFETY: the store size of a global's sized type, by the module's layout.
            _ => unsafe {
                inkwell::llvm_sys::target::LLVMStoreSizeOfType(
                    inkwell::llvm_sys::target::LLVMGetModuleDataLayout(module.as_mut_ptr()),
                    LLVMGlobalGetValueType(global.as_value_ref()),
                )
            },
        };
        bytes += size;
    }
    (bytes, dynamic)
}

fn max_threads(kernel: FunctionValue<'_>, options: &Options) -> u32 {
    kernel
        .get_string_attribute(inkwell::attributes::AttributeLoc::Function, "nvvm.maxntid")
        .and_then(|a| {
            a.get_string_value()
                .to_string_lossy()
                .split(',')
                .map(|d| d.trim().parse::<u32>().ok())
                .try_fold(1u32, |acc, d| d.map(|d| acc.saturating_mul(d)))
        })
        .unwrap_or(options.max_threads)
}

/// Transforms `kernel`; returns what was done.
pub fn transform_kernel(
    module: &Module<'_>,
    kernel: FunctionValue<'_>,
    options: &Options,
) -> TransformReport {
    let mut report = TransformReport {
        max_threads: max_threads(kernel, options),
        ..TransformReport::default()
    };
    if !options.transform {
        report
            .reasons
            .push("transform disabled (-sl1-disable / --no-sl1)".into());
        return report;
    }
    if let Some(buffer_name) = [false, true]
        .map(|launch| line_buffer_name(kernel, launch))
        .into_iter()
        .find(|name| module.get_global(name).is_some())
    {
        report.reasons.push(format!(
            "already transformed by S-L1 (the module has `{buffer_name}`); left as it is"
        ));
        return report;
    }
    let (mut kernel_shared, dynamic) = kernel_shared_memory(module, kernel);
    report.kernel_shared_bytes = kernel_shared;
    if dynamic {
        // The line buffer is static: beside dynamic shared memory it may
        // make a launch ask for more than a block gets, so it takes only
        // what the declared most leaves.
        let Some(bytes) = options.dynamic_shared else {
            report.reasons.push(
                "kernel uses dynamic shared memory (extern __shared__): its size is unknown at \
                 compile time, so S-L1 stays off (--dynamic-shared BYTES, the most its launches \
                 give, lets it take lines from the rest of the budget)"
                    .into(),
            );
            return report;
        };
        report.dynamic_shared_bytes = Some(bytes);
        kernel_shared += bytes;
    }

    // Main loops and the data structures worth a line.
    let first = analyse_kernel(module, kernel);
    let companion = |id: u32| {
        let ds = &first.data_structures[id as usize];
        read_only_companion(ds.restrict, ds.mode, options)
    };
    let convergent = crate::analysis::sync::convergent_calls(&first.blocks);
    let line = options.line_size;
    let mut headers = Vec::new();
    // Header blocks of the chosen top-level loops.
    let mut cached_nests = BTreeSet::new();
    // Predictions of cached structures: (entry, how decided, stride, layout).
    let mut cached_predictions: Vec<(usize, &str, i64, Vec<cost::Site>)> = Vec::new();
    let mut structures = BTreeSet::new();
    // Bytes of the widest access through a line (sets the padding).
    let mut widest = 1u64;
    for l in first.loops.loops.iter().filter(|l| l.depth == 1) {
        let in_loop: Vec<&Access<'_>> = first
            .accesses
            .iter()
            .filter(|a| l.blocks.contains(&a.block))
            .collect();
        // Each cacheable access, with its structure and the loop depth it sits at.
        let cacheable_accesses: Vec<(&Access<'_>, u32, u32)> = in_loop
            .iter()
            .copied()
            .filter(|a| uncacheable_reason(&first, a, line).is_none())
            .filter_map(|a| {
                let depth = first
                    .loops
                    .innermost_loop_of(a.block)
                    .map_or(0, |i| first.loops.loops[i].depth);
                first.data_structure_of(a).map(|d| (a, d.id, depth))
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
        let label = first.block_label(l.header);
        let instructions: usize = l
            .blocks
            .iter()
            .map(|&b| first.blocks[b].instructions().len())
            .sum();
        if in_loop.len() > MAX_LOOP_ACCESSES || instructions > MAX_LOOP_INSTRUCTIONS {
            report.reasons.push(format!(
                "loop at {label}: too large ({} accesses, {instructions} instructions; S-L1 \
                 takes loops of up to {MAX_LOOP_ACCESSES} and {MAX_LOOP_INSTRUCTIONS}): it copies \
                 a loop up to four times, and the compile time would grow with the copies; left \
                 as it is",
                in_loop.len()
            ));
            continue;
        }
        if headers.len() >= MAX_LOOPS_PER_KERNEL {
            report.reasons.push(format!(
                "loop at {label}: the kernel's first {MAX_LOOPS_PER_KERNEL} main loops are \
                 transformed already (each re-analyses the growing kernel); left as it is"
            ));
            continue;
        }
        if let Some(step) = crate::analysis::stride::cooperative_step(&first.blocks, l) {
            report.reasons.push(format!(
                "loop at {label}: steps by the {} size ({}): a thread's iterations are that \
                 many elements apart, so a private line is never hit again; left as it is",
                step.scope(),
                step.registers.join(" * ")
            ));
            continue;
        }
        if let Some(guard) = crate::analysis::lone_lane::lone_lane_guard(&first, l.header) {
            report.reasons.push(format!(
                "loop at {label}: at most one lane of each warp runs it (the branch of {} lets \
                 one lane in, as `if (threadIdx.x == 0)` does): that thread's lines do not \
                 thrash the hardware L1, and the cache's checks would only lengthen its serial \
                 path; left as it is",
                first.block_label(guard)
            ));
            continue;
        }
        let mut direct: BTreeMap<u32, String> =
            cold.iter().map(|&id| (id, COLD.to_string())).collect();
        // Forced off measures the paper's overhead (monitoring and per-access
        // checks), which a static decision would fold away.
        let predictions = if options.static_prediction && !options.force_uncached {
            predict_structures(&first, &cacheable_accesses, &cacheable, line)
        } else {
            Vec::new()
        };
        // What each structure's lines can gain at most (`cost`), where it
        // clears the margin.
        let mut gain_bounds: BTreeMap<u32, f64> = BTreeMap::new();
        for (id, p) in &predictions {
            match p {
                Prediction::Static { hit_percent, .. }
                    if *hit_percent <= predict::MIN_HIT_PERCENT =>
                {
                    direct.insert(*id, predict::describe(p, line).2);
                }
                Prediction::Indirect => {
                    direct.insert(*id, predict::INDIRECT_DIRECT.to_string());
                }
                Prediction::Dynamic(_) => {
                    direct.insert(*id, predict::describe(p, line).2);
                }
                Prediction::Static { stride, layout, .. } => {
                    if let Some(bound) = cost::gain_bound(*stride, layout, &cost::H100_RATES) {
                        if !bound.pays() {
                            direct.insert(*id, bound.direct_reason(&cost::H100_RATES));
                        } else {
                            gain_bounds.insert(*id, bound.gain);
                        }
                    }
                }
            }
        }
        let in_loop_convergent: Vec<_> = convergent
            .iter()
            .filter(|c| l.blocks.contains(&c.block))
            .collect();
        // The lane test where the IR settles it: closer lanes than a hardware
        // line share its lines (`lanes`). Not in loops with a collective.
        let lane_distances = if !in_loop_convergent.is_empty() {
            BTreeMap::new()
        } else {
            lanes::static_distances(&first, &in_loop)
        };
        let candidates: Vec<u32> = cacheable
            .iter()
            .copied()
            .filter(|id| !direct.contains_key(id))
            .collect();
        for (id, distance) in lanes::close_statically(&first, &lane_distances, &candidates) {
            direct.insert(id, lanes::close_reason(distance));
        }
        cacheable.retain(|id| !direct.contains_key(id));
        let record_predictions = |report: &mut TransformReport| {
            for (id, p) in &predictions {
                let (stride, hit_percent, mut decision) = predict::describe(p, line);
                if let Some(reason) = direct.get(id) {
                    decision.clone_from(reason);
                }
                if let (Some(gain), false) = (gain_bounds.get(id), direct.contains_key(id)) {
                    decision.push_str(&format!(", lines can gain up to {gain:.1}x"));
                }
                report.predictions.push(PredictionReport {
                    loop_header: label.clone(),
                    argument: first.data_structures[*id as usize].name.clone(),
                    stride,
                    hit_percent,
                    decision,
                    sectors: None,
                });
            }
        };
        if cacheable.is_empty() && predictions.iter().any(|(id, _)| direct.contains_key(id)) {
            report.reasons.push(format!(
                "loop at {label}: no structure is predicted to pay for a line (each \
                 structure's prediction says why); left as it is"
            ));
            record_predictions(&mut report);
            continue;
        }
        // A loop that only reads restrict structures is left to the hardware
        // L1, unless it gets counted line runs: then most bytes are read from
        // shared memory without a check, which beats the L1 (measured on the
        // H100: wc 1.37x). Loops that also write keep their read-only
        // structures as companions of the written ones (see `decide`).
        let read_only_in_runs = options.line_runs
            && !options.stats
            && !cacheable.is_empty()
            && cacheable.iter().all(|&id| companion(id))
            && counted_runs_expected(&first, l, &predictions, &cacheable_accesses, &cacheable);
        // A structure the loop only reads is a read stream there, whatever
        // the kernel does with it elsewhere: a restrict one that no access
        // of the loop may write, one without restrict where the loop writes
        // no global memory at all (it may alias what is written). HeCBench
        // `maxpool3d`'s non-restrict image, read in a pooling window, ran
        // 0.70x of the build without S-L1 cached (H100, 2026-11-25).
        let global_writes: Vec<&Access<'_>> = in_loop
            .iter()
            .copied()
            .filter(|a| a.kind.writes() && !matches!(a.base, Base::Shared | Base::Local))
            .collect();
        let only_read = |id: u32| {
            let ds = &first.data_structures[id as usize];
            companion(id)
                || (!options.cache_read_only
                    && if ds.restrict {
                        global_writes.iter().all(|a| {
                            !a.base.may_touch_argument(ds.arg_index)
                                && !matches!(a.base, Base::Unknown(_))
                        })
                    } else {
                        global_writes.is_empty()
                    })
        };
        // Read-only structures an inner loop reads again and again: between
        // two reads the hardware L1 loses them (k-means, measured on the
        // H100: 1.21x cached against 1.00x left to L1).
        let rereads: BTreeMap<u32, String> = cacheable_accesses
            .iter()
            .filter(|&&(_, id, _)| only_read(id) && cacheable.contains(&id))
            .filter_map(|&(a, id, _)| {
                crate::analysis::reuse::reread_across(&first, l, a).map(|inner| (id, inner))
            })
            .collect();
        let companion = |id: u32| !read_only_in_runs && only_read(id) && !rereads.contains_key(&id);
        // A structure no write of the loop goes through: where every
        // structure the loop would cache is one, its lines would serve
        // reads alone, whatever the loop writes through the structures it
        // leaves direct (an alias those writes may reach keeps a structure
        // without restrict from riding as a companion, not from being left
        // to the L1). HeCBench `chemv`, reading a matrix without restrict
        // beside a direct accumulator, ran 0.36x cached (H100, 2026-11-26).
        let unwritten = |id: u32| {
            let arg = first.data_structures[id as usize].arg_index;
            !options.cache_read_only
                && !read_only_in_runs
                && !rereads.contains_key(&id)
                && !global_writes.iter().any(|a| a.base.may_touch_argument(arg))
        };
        if !cacheable.is_empty() && cacheable.iter().all(|&id| companion(id) || unwritten(id)) {
            let cold_note = if cold.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} {} accessed only outside the inner loops, an inner loop's trip count \
                     times less often: a line would save little and cost every thread registers \
                     and shared memory",
                    names(&first, &cold),
                    if cold.len() == 1 { "is" } else { "are" }
                )
            };
            report.reasons.push(format!(
                "loop at {label}: caches nothing but structures it only reads ({}), which \
                 the hardware L1 serves well (a sector per thread does not thrash it){cold_note}; \
                 left as it is (-sl1-cache-read-only / --cache-read-only caches them, as the \
                 paper does)",
                names(&first, &cacheable.iter().copied().collect())
            ));
            continue;
        }
        if cacheable.is_empty() {
            if let Some(why) = in_loop
                .iter()
                .find_map(|a| uncacheable_reason(&first, a, line))
            {
                report.reasons.push(format!(
                    "loop at {label}: no access can go through the cache (e.g. {why})"
                ));
            }
            continue;
        }
        if let Some(a) = in_loop
            .iter()
            .find(|a| matches!(a.base, Base::Unknown(_) | Base::Mixed(_)))
        {
            report.reasons.push(format!(
                "loop at {label}: an access's address is not traced to one argument ({})",
                match &a.base {
                    Base::Unknown(r) => r,
                    _ => "several arguments",
                }
            ));
            continue;
        }
        if in_loop_convergent.iter().any(|c| !c.block_barrier) {
            // Threads leave the monitoring slice at different iterations; a
            // shuffle or vote in the loop would then be reached by the threads
            // of one warp at different instructions.
            report.reasons.push(format!(
                "loop at {label}: contains a warp collective (shuffle, vote, __syncwarp...); \
                 slicing would split threads that must meet at it"
            ));
            continue;
        }
        // With a block barrier in the loop every thread of the block runs it
        // the same number of times: the slices are left and chosen block-wide.
        let uniform = !in_loop_convergent.is_empty();
        if first
            .loops
            .irreducible_edges
            .iter()
            .any(|(f, t)| l.blocks.contains(f) || l.blocks.contains(t))
        {
            report
                .reasons
                .push(format!("loop at {label}: irreducible control flow"));
            continue;
        }
        record_predictions(&mut report);
        // How each structure the loop caches is decided, and the profiler's
        // view of it (which needs the line padding): said once the kernel
        // is known to be transformed.
        let all_static = predictions
            .iter()
            .filter(|(id, _)| !direct.contains_key(id))
            .all(|(_, p)| matches!(p, Prediction::Static { .. }));
        let first_entry = report.predictions.len() - predictions.len();
        for (k, (id, p)) in predictions.iter().enumerate() {
            if let (Prediction::Static { stride, layout, .. }, false) = (p, direct.contains_key(id))
            {
                let how = if all_static {
                    "; decided statically, without monitoring"
                } else {
                    "; monitored with the loop's other structures"
                };
                cached_predictions.push((first_entry + k, how, *stride, layout.clone()));
            }
        }
        structures.extend(cacheable.iter().copied());
        widest = cacheable_accesses
            .iter()
            .filter(|&&(_, id, _)| cacheable.contains(&id))
            .map(|&(a, _, _)| a.size)
            .fold(widest, u64::max);
        let hot: BTreeSet<u32> = cacheable.into_iter().collect();
        let static_rates: Option<BTreeMap<u32, StaticRate>> = predictions
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
            .filter(|rates| rates.len() == hot.len());
        report
            .rereads
            .extend(rereads.iter().map(|(&id, inner)| RereadReport {
                loop_header: label.clone(),
                argument: first.data_structures[id as usize].name.clone(),
                inner_loop: inner.clone(),
            }));
        let lane_distances = lane_distances
            .into_iter()
            .filter(|(id, _)| hot.contains(id))
            .collect();
        cached_nests.insert(l.header);
        headers.push(ChosenLoop {
            header: first.blocks[l.header].as_raw_block(),
            label,
            uniform,
            hot,
            direct,
            static_rates,
            read_only_in_runs,
            rereads: rereads.keys().copied().collect(),
            lane_distances,
        });
    }
    if headers.is_empty() {
        if report.reasons.is_empty() {
            report
                .reasons
                .push("no main loop with data-structure accesses".into());
        }
        return report;
    }
    if let Some(nest) = local_nests::deeper_local_nest(&first, &cached_nests) {
        report.reasons.push(nest.reason());
        return report;
    }
    // Loops that only read fill their lines from the stage, loaded a run
    // ahead, and a longer line makes longer runs: such kernels may take
    // larger lines (wc on the H100: 2.43x with 64 B, 2.31x with 32 B).
    let read_only_options;
    let options = if headers.iter().all(|h| h.read_only_in_runs)
        && options.read_only_max_line_size > options.max_line_size
    {
        read_only_options = Options {
            max_line_size: options.read_only_max_line_size,
            ..options.clone()
        };
        &read_only_options
    } else {
        options
    };

    // The line buffer: one line per structure and thread at the largest block,
    // each line followed by `pad` bytes (`line_pad`).
    let pad = if options.line_padding {
        line_pad(widest)
    } else {
        0
    };
    let pitch = u64::from(line + pad);
    let available = options.shared_budget.saturating_sub(kernel_shared);
    let wanted = u64::from(report.max_threads) * structures.len() as u64 * pitch;
    let buffer = wanted.min(available) / 16 * 16;
    if buffer < 32 * pitch {
        report.reasons.push(format!(
            "the kernel already uses {kernel_shared} B of {} shared memory; the {available} B \
             left of the {} B budget cannot give a warp one line each, so S-L1 stays off",
            if report.dynamic_shared_bytes.is_some() {
                "static and declared dynamic"
            } else {
                "static"
            },
            options.shared_budget
        ));
        return report;
    }
    for (entry, how, stride, layout) in cached_predictions {
        let p = &mut report.predictions[entry];
        p.decision.push_str(how);
        p.sectors = cost::sector_figures(stride, &layout, &options.line_sizes(), pad);
    }
    report.shared_bytes = buffer;
    report.line_pad_bytes = pad;
    // Launch-sized: the same most, given per block at launch (beside the
    // kernel's own dynamic shared memory the buffer stays static).
    let launch_bytes = (options.launch_sized && !dynamic).then(|| LaunchBytes {
        per_thread: structures.len() as u64 * u64::from(options.max_line_size + pad),
        most: buffer,
    });
    report.launch_bytes = launch_bytes;
    let lines = buffer / pitch;
    let block = u64::from(report.max_threads);
    let wanted_lines = block * structures.len() as u64;
    if lines < wanted_lines {
        let first_warps = (lines + block).saturating_sub(wanted_lines) / 32;
        report.warps_with_lines = Some(first_warps as u32);
        report.warps_with_a_line = Some((lines.min(block) / 32) as u32);
    }

    let mut rt = Runtime::new(
        module,
        line,
        options.max_line_size,
        options.prefetch,
        pad,
        options.warp_copies,
    );
    let buffer_global = add_line_buffer(module, kernel, launch_bytes.is_none().then_some(buffer));
    let function = kernel.as_value_ref();
    let kernel_name = kernel.get_name().to_string_lossy().into_owned();
    let stats = options.stats.then(|| {
        report.stats_symbol = Some(stats::symbol(&kernel_name));
        Stats::add_global(
            module.as_mut_ptr(),
            &kernel_name,
            first.data_structures.len(),
        )
    });
    let states: Vec<Option<State>> = first
        .data_structures
        .iter()
        .map(|d| {
            structures
                .contains(&d.id)
                .then(|| new_state(function, buffer_global, d, options))
        })
        .collect();
    let count = edit::entry_alloca(function, i32_type(function), "sl1.count");
    store_before_entry_end(function, count, const_int(i32_type(function), 0));
    // The line size each loop's decision picks, when it may pick one.
    let line_bytes = (options.max_line_size > line).then(|| {
        // SAFETY: reads the i64 type of the function's context.
        let i64t = unsafe { LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(function))) };
        let slot = edit::entry_alloca(function, i64t, "sl1.line.bytes");
        store_before_entry_end(function, slot, const_int(i64t, i64::from(line)));
        slot
    });

    let kernel_structures = (headers.len() > 1).then_some(structures.len());
    for chosen in headers {
        let ChosenLoop {
            header,
            label,
            uniform,
            hot,
            direct,
            static_rates,
            read_only_in_runs,
            rereads,
            lane_distances,
        } = chosen;
        let loop_options = Options {
            cache_read_only: options.cache_read_only || read_only_in_runs,
            ..options.clone()
        };
        let k = analyse_kernel(module, kernel);
        let Some(l) = k
            .loops
            .loops
            .iter()
            .find(|l| l.depth == 1 && k.blocks[l.header].as_raw_block() == header)
        else {
            continue;
        };
        let scope = crate::analysis::affine::LoopScope::new(k.function, &k.blocks, l);
        let lane_forms = if uniform {
            BTreeMap::new()
        } else {
            let in_loop: Vec<&Access<'_>> = k
                .accesses
                .iter()
                .filter(|a| l.blocks.contains(&a.block))
                .collect();
            let mut forms = lanes::lane_tested(&k, &scope, &in_loop);
            forms.retain(|id, _| hot.contains(id) && !lane_distances.contains_key(id));
            lanes::without_uniform_terms(&k, forms)
        };
        if !lane_forms.is_empty() {
            report.lane_tests.push(LaneTestReport {
                loop_header: label.clone(),
                arguments: lane_forms
                    .keys()
                    .map(|&id| k.data_structures[id as usize].name.clone())
                    .collect(),
                min_bytes: lanes::HARDWARE_LINE_BYTES,
            });
        }
        // Structures cached in another loop but cold in this one go direct here.
        let loop_states: Vec<Option<State>> = states
            .iter()
            .enumerate()
            .map(|(id, s)| s.filter(|_| hot.contains(&(id as u32))))
            .collect();
        let slice = LoopSlice {
            k: &k,
            blocks: l
                .blocks
                .iter()
                .map(|&b| k.blocks[b].as_raw_block())
                .collect(),
            header,
            options: &loop_options,
            states: &loop_states,
            count,
            line_bytes,
            kernel_structures,
            buffer: buffer_global,
            buffer_bytes: buffer,
            launch_sized: launch_bytes.is_some(),
            pad,
            uniform,
            direct,
            static_rates,
            rereads,
            stats,
            exit: scope.counted_exit(),
            lane_forms,
            lane_distances,
        };
        let (cached, direct, mut runs) = slice.apply(&mut rt, &label);
        if let Some(r) = runs.as_mut().filter(|_| read_only_in_runs) {
            r.detail.push_str(&format!(
                "; the loop only reads the structures it caches, and its read-only structures \
                 are cached for these runs (checked lines of a read-only stream lose to the \
                 hardware L1), in lines of up to {} B",
                options.max_line_size
            ));
        }
        report.accesses_cached += cached;
        report.accesses_direct.extend(direct);
        report.line_runs.extend(runs);
        report.loops_sliced.push(label);
    }

    cleanup(module, kernel, &rt);
    report.applied = true;
    report
}

/// A transformed kernel without launch bounds declares the block size its
/// line buffer is sized for (`nvvm.maxntid`, PTX `.maxntid`), so that
/// ptxas keeps its registers within what a block that large may use. The
/// cache's state took `soa` to 96 registers a thread and `scatter` to 72,
/// and their launches of 1024 threads a block failed (too many resources)
/// where the builds without S-L1 ran (H100, 2026-11-25). Declared once the
/// transform has succeeded (a kernel restored after a failure keeps its
/// attributes as they were).
pub(crate) fn declare_block_size(kernel: FunctionValue<'_>, threads: u32) {
    let loc = inkwell::attributes::AttributeLoc::Function;
    if kernel.get_string_attribute(loc, "nvvm.maxntid").is_none() {
        let context = kernel.get_type().get_context();
        let bound = context.create_string_attribute("nvvm.maxntid", &threads.to_string());
        kernel.add_attribute(loc, bound);
    }
}

/// Inlines the runtime and promotes the state slots back to registers.
fn cleanup(module: &Module<'_>, kernel: FunctionValue<'_>, rt: &Runtime<'_, '_>) {
    // SAFETY: runs LLVM pass pipelines on the live module and kernel; the
    // helpers are deleted only after inlining left them without uses.
    unsafe {
        use inkwell::llvm_sys::transforms::pass_builder::*;
        let opts = LLVMCreatePassBuilderOptions();
        let err = LLVMRunPasses(
            module.as_mut_ptr(),
            c"always-inline".as_ptr(),
            std::ptr::null_mut(),
            opts,
        );
        assert!(err.is_null(), "always-inline failed");
        let err = LLVMRunPassesOnFunction(
            kernel.as_value_ref(),
            c"sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg".as_ptr(),
            std::ptr::null_mut(),
            opts,
        );
        assert!(err.is_null(), "clean-up passes failed");
        LLVMDisposePassBuilderOptions(opts);
        for name in rt.helper_names() {
            if let Some(f) = module.get_function(&name) {
                if LLVMGetFirstUse(f.as_value_ref()).is_null() {
                    f.delete();
                }
            }
        }
    }
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

/// The line buffer: a static array of `bytes`, or without them the
/// launch-sized one, an `extern __shared__` array (PTX `.extern .shared`)
/// that starts where the launch's dynamic shared memory does.
fn add_line_buffer(
    module: &Module<'_>,
    kernel: FunctionValue<'_>,
    bytes: Option<u64>,
) -> LLVMValueRef {
    let ctx = module.get_context();
    let ty = ctx.i8_type().array_type(bytes.unwrap_or(0) as u32);
    let name = line_buffer_name(kernel, bytes.is_none());
    let global = module.add_global(ty, Some(AddressSpace::from(ADDRSPACE_SHARED)), &name);
    if bytes.is_some() {
        global.set_linkage(Linkage::Internal);
        global.set_initializer(&ty.get_poison());
    } else {
        global.set_linkage(Linkage::External);
    }
    global.set_alignment(16);
    global.as_value_ref()
}

/// "`a`, `b`": the structures' names, quoted.
fn names(k: &crate::analysis::KernelAnalysis<'_>, ids: &BTreeSet<u32>) -> String {
    ids.iter()
        .map(|&id| format!("`{}`", k.data_structures[id as usize].name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The report's reason for a cold structure's direct accesses.
const COLD: &str = "cold: accessed only outside the loop's inner loops";

/// A main loop chosen for slicing.
struct ChosenLoop {
    header: LLVMBasicBlockRef,
    label: String,
    /// The loop has a block barrier.
    uniform: bool,
    /// Structures that get a line.
    hot: BTreeSet<u32>,
    /// Structures left direct in this loop, with the reason.
    direct: BTreeMap<u32, String>,
    /// Every hot structure's predicted rate, when all are predicted: the
    /// loop then skips monitoring.
    static_rates: Option<BTreeMap<u32, StaticRate>>,
    /// The loop only reads, and it gets counted line runs
    /// (`counted_runs_expected`): its read-only restrict structures are
    /// cached as if `cache_read_only` were on.
    read_only_in_runs: bool,
    /// Read-only structures an inner loop reads again (`RereadReport`):
    /// cached on their own, not as companions of written ones.
    rereads: BTreeSet<u32>,
    /// Hot structures whose lanes' distance the IR settles (`lanes`).
    lane_distances: BTreeMap<u32, i64>,
}

/// Whether the loop will get line runs that leave the exit test out: every
/// cached structure is a restrict argument predicted to move forward in the
/// loop itself, nothing in the loop writes lines back early (fences,
/// barriers, calls, atomics), and the exit test is counted. (`LoopSlice`
/// checks the same once the accesses are routed, and the report says what
/// it found.)
fn counted_runs_expected(
    k: &crate::analysis::KernelAnalysis<'_>,
    l: &crate::analysis::loops::Loop,
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
    k: &crate::analysis::KernelAnalysis<'_>,
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

/// The buffer's global: a launch-sized one is external, and PTX keeps
/// external names as they are, so its name is a PTX identifier.
fn line_buffer_name(kernel: FunctionValue<'_>, launch_sized: bool) -> String {
    let kernel = kernel.get_name().to_string_lossy();
    if launch_sized {
        format!("sl1_lines_{kernel}")
    } else {
        format!("sl1.lines.{kernel}")
    }
}

//! What the transform will do to one kernel, decided from its analysis before
//! any IR changes: which main loops it slices and why the others stay as they
//! are, which structures get a line in each and how each is decided, and the
//! line buffer. `transform_kernel` emits the plan.
//!
//! By job: the main loops, each chosen or refused with the reason
//! (`loops`), each structure's prediction and what it leaves direct
//! (`predictions`), how a loop reads what it would cache (`reads`), and the
//! kernel's line sizes and line buffer (`lines`).

use std::collections::BTreeSet;

use super::cost;
use super::local_nests;
use super::reasons::Reason;
use super::reports::{ApartReport, Decision, LaunchBytes, TransformReport};
use crate::analysis::loops::Loop;
use crate::analysis::scopes::apart_in_loop;
use crate::analysis::KernelAnalysis;
use crate::options::Options;

mod lines;
mod loops;
mod predictions;
mod reads;

use lines::{kernel_line_sizes, line_pad, size_buffer, stream_line_size};
pub use lines::{KernelShared, LineSizes};
use loops::Planner;
pub use loops::{ChosenLoop, MAX_LOOPS_PER_KERNEL, MAX_LOOP_ACCESSES, MAX_LOOP_INSTRUCTIONS};

/// The transform of one kernel, before it is emitted.
pub struct KernelPlan<'o, 'm> {
    /// The main loops to slice, in the kernel's loop order.
    pub loops: Vec<ChosenLoop<'m>>,
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

/// Plans the transform of kernel `k`, which uses `shared` itself. What
/// stays untransformed, and why, goes to `report`; `None` when nothing is
/// transformed.
pub fn plan_kernel<'o, 'm>(
    k: &KernelAnalysis<'m>,
    options: &'o Options,
    shared: KernelShared,
    report: &mut TransformReport,
) -> Option<KernelPlan<'o, 'm>> {
    // Each main loop sees the arguments its alias checks keep apart as
    // restrict (`scopes`); a loop without any sees the kernel as it is.
    // The warp-range copies walk a warp's range together: nothing to cache.
    let main_loops: Vec<&Loop> = k
        .loops
        .loops
        .iter()
        .filter(|l| l.depth == 1 && !super::warp_ranges::is_copy(k.blocks[l.header]))
        .collect();
    let views: Vec<(BTreeSet<u32>, Option<KernelAnalysis<'_>>)> = main_loops
        .iter()
        .map(|l| {
            let apart = apart_in_loop(k, l);
            let view = (!apart.is_empty()).then(|| k.with_restrict(&apart));
            (apart, view)
        })
        .collect();
    // Loops the loop merge would take (inner loops whose trip counts depend
    // on loaded data) are left to it: per-thread lines would split the warp
    // it keeps together. The merge runs only in kernels the transform
    // leaves alone, so only where no other main loop is cached; and not
    // where the paper's caching is asked for (`--cache-read-only`).
    let to_merge = if options.device_tuning && options.loop_merging && !options.cache_read_only {
        crate::tuning::loops_to_merge(k.function)
    } else {
        Vec::new()
    };
    let merged_inner = |l: &Loop| {
        let header = k.blocks[l.header];
        to_merge
            .iter()
            .find(|(h, _)| *h == header)
            .map(|(_, inner)| inner.join(", "))
    };
    let leave_to_merge = !to_merge.is_empty() && {
        let mut scratch = report.clone();
        let mut probe = Planner::new(k, options, &mut scratch);
        for (l, (_, view)) in main_loops.iter().zip(&views) {
            if merged_inner(l).is_none() {
                probe.k = view.as_ref().unwrap_or(k);
                probe.plan_loop(l);
            }
        }
        probe.loops.is_empty()
    };
    let mut planner = Planner::new(k, options, report);
    for (l, (apart, view)) in main_loops.into_iter().zip(&views) {
        if let Some(inner) = merged_inner(l).filter(|_| leave_to_merge) {
            planner.report.reasons.push(Reason::LeftToLoopMerge {
                loop_at: k.block_label(l.header),
                inner,
            });
            continue;
        }
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

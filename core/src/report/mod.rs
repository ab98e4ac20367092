//! The report: what the pass found and did, per kernel. Serialized as JSON for
//! `--report`, rendered as text for people, and turned into LLVM remarks.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::option_list::Hint;
use crate::options::Options;

pub mod direct;
mod kinds;
mod reason;
pub mod rewrites;
pub mod transform;

pub use direct::{Decided, Decision, DirectReason};
pub use kinds::{AccessKind, Mode, SourceLocation};
pub use reason::Reason;
use rewrites::Rewrite;
pub use transform::TransformReport;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The module's source file name as LLVM records it.
    pub source: String,
    pub target: String,
    pub options: Options,
    /// Whether the module was changed: a kernel transformed, or code
    /// rewritten by the device rewrites.
    pub transformed: bool,
    /// Whether a kernel's body was put back from its copy after a failed
    /// transform or merge: the same code in new blocks, so that LLVM's
    /// cached analyses of the kernel no longer hold.
    #[serde(skip)]
    pub bodies_restored: bool,
    /// What the device rewrites changed, when they ran (`Options::device_tuning`;
    /// `device_tuning` in the JSON, as it has always been).
    #[serde(
        rename = "device_tuning",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub device_rewrites: Option<rewrites::RewriteReport>,
    pub kernels: Vec<KernelReport>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KernelReport {
    /// The symbol name.
    pub name: String,
    /// The demangled C++ name, when the symbol is mangled.
    pub demangled: Option<String>,
    pub data_structures: Vec<DataStructureReport>,
    pub loops: Vec<LoopReport>,
    pub accesses: AccessCounts,
    /// Accesses whose address could not be traced to one root, with the reason.
    pub unattributed: Vec<UnattributedAccess>,
    pub sync: SyncCounts,
    /// Facts that limit what the pass can do with this kernel.
    pub notes: Vec<String>,
    /// What the transformation did.
    pub transform: TransformReport,
    /// Where the statistics build counts which path of each run-time alias
    /// check ran (`Options::stats`; kernels with checked copies only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alias_paths: Option<AliasPathCounters>,
}

/// The statistics build's counters of a kernel's run-time alias checks:
/// per check, in the order of its number, two little-endian u64 in the
/// global `symbol`: thread entries that found the ranges apart (the copy
/// without aliases ran), then those that found them overlapping.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AliasPathCounters {
    pub symbol: String,
    pub checks: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataStructureReport {
    pub id: u32,
    pub argument: String,
    pub arg_index: u32,
    pub restrict: bool,
    pub mode: Mode,
    pub loads: usize,
    pub stores: usize,
    pub atomics: usize,
    /// memcpy/memmove/memset ranges.
    pub ranges: usize,
    /// Distinct access widths in bytes.
    pub widths: Vec<u64>,
    pub volatile: usize,
    /// Accesses that sit inside some loop.
    pub in_loops: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopReport {
    pub header: String,
    pub depth: u32,
    pub parent: Option<String>,
    pub blocks: usize,
    pub latches: usize,
    pub exits: usize,
    /// Data-structure accesses in the loop, nested loops included.
    pub accesses: usize,
    /// Fences, barriers and calls in the loop.
    pub sync_points: usize,
    /// A top-level loop with data-structure accesses: a candidate for slicing.
    pub main_loop: bool,
    /// Where the loop's header is in the source (with debug information).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLocation>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessCounts {
    pub total: usize,
    pub data_structure: usize,
    pub shared: usize,
    pub local: usize,
    pub global: usize,
    pub unattributed: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnattributedAccess {
    pub kind: AccessKind,
    pub block: String,
    pub reason: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncCounts {
    pub fences: usize,
    pub barriers: usize,
    pub atomics: usize,
    pub calls: usize,
}

fn mode_text(mode: Mode) -> &'static str {
    match mode {
        Mode::ReadOnly => "read-only",
        Mode::ReadWrite => "read-write",
        Mode::Unused => "unused",
    }
}

impl Report {
    /// Why the pass put a kernel's body back, where it did: a transform
    /// that failed (`Reason::InternalError`) or a loop merge that failed.
    /// The code is then as without the pass there, so only the report
    /// tells; fuzzing and the generated-kernel tests count it a failure.
    pub fn internal_failure(&self) -> Option<String> {
        let transform = self.kernels.iter().find_map(|k| {
            k.transform.reasons.iter().find_map(|r| match r {
                Reason::InternalError { message } => Some(format!(
                    "kernel `{}`: the transform failed: {message}",
                    k.name
                )),
                _ => None,
            })
        });
        let merge = || {
            self.device_rewrites.as_ref().and_then(|t| {
                t.kept_nested
                    .iter()
                    .find(|k| k.failed)
                    .map(|k| format!("kernel `{}`: {}", k.kernel, k.reason))
            })
        };
        transform.or_else(merge)
    }

    /// The report as a person reads it.
    /// The report as text, each option a line names spelled by `flag` (from
    /// the option's plugin name and value placeholder: the front end's own
    /// spelling, `Hint::plugin_flag` for the plugin's).
    pub fn to_text(&self, flag: &dyn Fn(&str, Option<&str>) -> String) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "S-L1 report for {} ({}; threshold {}, {} B lines{})",
            self.source,
            self.target,
            self.options.threshold,
            if self.options.max_line_size > self.options.line_size {
                format!("{}-{}", self.options.line_size, self.options.max_line_size)
            } else {
                self.options.line_size.to_string()
            },
            if self.options.transform {
                ""
            } else {
                ", transform off"
            }
        );
        if self.options.transform {
            let _ = writeln!(
                out,
                "  gain bound's memory rates: {}",
                self.options.memory_rates
            );
        }
        if let Some(t) = &self.device_rewrites {
            let _ = writeln!(
                out,
                "  device tuning: {} loop(s) given a copy behind run-time alias checks, {} \
                 switch(es) that only choose values made selects, {} \
                 division(s) frozen for the loops nested below them, {} range check(s) on \
                 8- or 16-bit values made in 32 bits, {} sum(s) of narrow values added in 32 \
                 bits first, {} atomic add(s) to one address made once per warp, {} \
                 unrolled loop(s) given a copy that reads 16 B at a time where aligned, {} \
                 operation(s) on vectors of bytes done on 32-bit words",
                t.count(Rewrite::AliasChecks),
                t.count(Rewrite::SwitchSelects),
                t.count(Rewrite::FrozenDivisions),
                t.count(Rewrite::WidenedRangeChecks),
                t.count(Rewrite::NarrowSums),
                t.count(Rewrite::WarpAtomics),
                t.count(Rewrite::VectorLoads),
                t.count(Rewrite::ByteWords)
            );
            if t.count(Rewrite::RelaxedCas) > 0 {
                let _ = writeln!(
                    out,
                    "  device tuning: {} atomicCAS made relaxed of device scope, as nvcc \
                     compiles it (clang's orders it sequentially: a system-wide fence each)",
                    t.count(Rewrite::RelaxedCas)
                );
            }
            if t.count(Rewrite::ForwardedStores) > 0 {
                let _ = writeln!(
                    out,
                    "  device tuning: {} load(s) of what the loop's previous iteration stored \
                     given the stored value in a register, before S-L1 routes the loop's accesses",
                    t.count(Rewrite::ForwardedStores)
                );
            }
            if t.count(Rewrite::CountedTrips) > 0 {
                let _ = writeln!(
                    out,
                    "  device tuning: {} inner loop(s) whose start moves with the enclosing \
                     loop counted from zero to a trip count computed before them (which LLVM's \
                     unroller can afford)",
                    t.count(Rewrite::CountedTrips)
                );
            }
            if t.count(Rewrite::UnrolledStrides) > 0 {
                let _ = writeln!(
                    out,
                    "  device tuning: {} grid-stride loop(s) (a step known at run time only) \
                     unrolled 4 times, as nvcc unrolls them (LLVM's unroller declines their \
                     trip count, a division)",
                    t.count(Rewrite::UnrolledStrides)
                );
            }
            if t.count(Rewrite::KeptRolled) > 0 {
                let _ = writeln!(
                    out,
                    "  device tuning: {} loop(s) whose loads wait for stores through another \
                     pointer kept as LLVM unrolled them (ptxas unrolls them no further)",
                    t.count(Rewrite::KeptRolled)
                );
            }
            if t.count(Rewrite::ByteLaneCounts) > 0 {
                let _ = writeln!(
                    out,
                    "  device tuning: {} count(s) of a test on each byte of a word made one test \
                     of the 32-bit word and one count",
                    t.count(Rewrite::ByteLaneCounts)
                );
            }
            if t.count(Rewrite::IndexedAddresses) > 0 {
                let _ = writeln!(
                    out,
                    "  device tuning: {} inner loop(s) reading one array at three or more \
                     run-time distances keep their addresses as index arithmetic (no pointer \
                     induction variable per distance, which costs registers)",
                    t.count(Rewrite::IndexedAddresses)
                );
            }
            for m in &t.merged_loops {
                let _ = writeln!(
                    out,
                    "  kernel {}: loop at {} merged with its inner loop(s) at {} (their trip \
                     counts depend on loaded data: a warp's threads now advance together){}{}",
                    m.kernel,
                    m.outer,
                    m.inner.join(", "),
                    if m.rounds {
                        "; its own iterations, which test loaded data, run in rounds: a \
                         thread back from its inner loops waits for the warp's others"
                    } else {
                        ""
                    },
                    if m.peeled.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "; the first iteration of the loop(s) at {} inside them taken out \
                             in front (threads whose first test fails enter none)",
                            m.peeled.join(", ")
                        )
                    }
                );
            }
            for k in &t.kept_nested {
                let hint = if k.failed {
                    rewrites::NO_MERGING_HINT.note(flag)
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "  kernel {}: loop at {} kept nested: {}{hint}",
                    k.kernel, k.outer, k.reason
                );
            }
        }
        if self.kernels.is_empty() {
            let _ = writeln!(out, "  no kernels");
        }
        for k in &self.kernels {
            let _ = writeln!(out, "kernel {}", k.display_name());
            for entry in k.summary_entries() {
                let _ = writeln!(out, "  {}", entry.with_hint(flag));
            }
        }
        out
    }
}

impl KernelReport {
    /// The demangled name when there is one.
    pub fn display_name(&self) -> &str {
        self.demangled.as_deref().unwrap_or(&self.name)
    }

    /// One line per finding, for the text report and for LLVM remarks.
    pub fn summary_lines(&self) -> Vec<String> {
        self.summary_entries().into_iter().map(|e| e.text).collect()
    }

    /// The summary's lines, each with what it tells and the header of the
    /// loop it is about (remarks point at that loop's source location).
    pub fn summary_entries(&self) -> Vec<SummaryEntry> {
        let mut lines: Vec<SummaryEntry> = self
            .analysis_entries()
            .into_iter()
            .map(|(text, loop_header)| SummaryEntry::new(Finding::Analysis, text, loop_header))
            .collect();
        lines.extend(self.transform.summary_entries());
        lines
    }

    /// The summary's lines on what the analysis found.
    fn analysis_entries(&self) -> Vec<(String, Option<String>)> {
        let mut lines: Vec<(String, Option<String>)> = Vec::new();
        for ds in &self.data_structures {
            lines.push((format!(
                "data structure {} `{}` (arg {}): {}{}, {} load(s), {} store(s), {} atomic(s), widths {:?} B",
                ds.id,
                ds.argument,
                ds.arg_index,
                if ds.restrict { "restrict, " } else { "may alias, " },
                mode_text(ds.mode),
                ds.loads,
                ds.stores,
                ds.atomics,
                ds.widths,
            ), None));
        }
        for l in &self.loops {
            lines.push((
                format!(
                    "loop at {}{} (depth {}{}): {} block(s), {} data-structure access(es){}",
                    l.header,
                    l.location
                        .as_ref()
                        .map(|at| format!(" ({at})"))
                        .unwrap_or_default(),
                    l.depth,
                    l.parent
                        .as_ref()
                        .map(|p| format!(", inside {p}"))
                        .unwrap_or_default(),
                    l.blocks,
                    l.accesses,
                    if l.main_loop { ", main loop" } else { "" },
                ),
                Some(l.header.clone()),
            ));
        }
        let a = &self.accesses;
        lines.push((format!(
            "accesses: {} total, {} to data structures, {} shared, {} local, {} global, {} unattributed",
            a.total, a.data_structure, a.shared, a.local, a.global, a.unattributed
        ), None));
        for u in &self.unattributed {
            lines.push((
                format!("unattributed {:?} in {}: {}", u.kind, u.block, u.reason),
                None,
            ));
        }
        let s = &self.sync;
        if s.fences + s.barriers + s.atomics + s.calls > 0 {
            lines.push((
                format!(
                    "coherence points: {} fence(s), {} barrier(s), {} atomic(s), {} call(s)",
                    s.fences, s.barriers, s.atomics, s.calls
                ),
                None,
            ));
        }
        lines.extend(self.notes.iter().map(|n| (format!("note: {n}"), None)));
        lines
    }
}

/// What a summary line tells: what S-L1 did (`-Rpass=sl1`), what it left
/// and why (`-Rpass-missed=sl1`), or a finding (`-Rpass-analysis=sl1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finding {
    Done,
    Missed,
    Analysis,
}

/// One line of a kernel's summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SummaryEntry {
    pub text: String,
    /// The header of the loop the line is about, if any.
    pub loop_header: Option<String>,
    pub finding: Finding,
    /// The option that changes what the line tells, for the front end to
    /// name in its own spelling (`with_hint`).
    pub hint: Option<Hint>,
}

impl SummaryEntry {
    fn new(finding: Finding, text: String, loop_header: Option<String>) -> SummaryEntry {
        SummaryEntry {
            text,
            loop_header,
            finding,
            hint: None,
        }
    }

    fn hinted(self, hint: Option<Hint>) -> SummaryEntry {
        SummaryEntry { hint, ..self }
    }

    /// The text with its hint, the option spelled by `flag` (from the
    /// option's plugin name and value placeholder).
    pub fn with_hint(&self, flag: impl Fn(&str, Option<&str>) -> String) -> String {
        match &self.hint {
            Some(hint) => format!("{}{}", self.text, hint.note(flag)),
            None => self.text.clone(),
        }
    }
}

impl TransformReport {
    /// The summary's lines on what the transform did and left alone, each
    /// with the header of the loop it is about.
    fn summary_entries(&self) -> Vec<SummaryEntry> {
        let mut lines: Vec<SummaryEntry> = Vec::new();
        let t = self;
        if t.applied {
            lines.push(SummaryEntry::new(Finding::Done, format!(
                "S-L1: {} loop(s) sliced ({}), {} access(es) through the cache, {} B of shared memory for up to {} threads",
                t.loops_sliced.len(),
                t.loops_sliced.join(", "),
                t.accesses_cached,
                t.shared_bytes,
                t.max_threads
            // At the first sliced loop's line where the source has one.
            ), t.loops_sliced.first().cloned()));
        }
        if !t.warp_ranges.is_empty() {
            lines.push(SummaryEntry::new(
                Finding::Done,
                format!(
                    "warp ranges: {} loop(s) ({}) also run, for warps whose chunks lie side by side, \
                     over the whole warp's range 16 B a lane",
                    t.warp_ranges.len(),
                    t.warp_ranges.join(", ")
                ),
                t.warp_ranges.first().cloned(),
            ));
        }
        for refused in &t.warp_ranges_refused {
            lines.push(SummaryEntry::new(
                Finding::Missed,
                format!(
                    "no warp range for loop {}: {}",
                    refused.loop_header, refused.why
                ),
                Some(refused.loop_header.clone()),
            ));
        }
        if let (true, Some(bytes)) = (t.applied, t.stream_lines) {
            lines.push(SummaryEntry::new(
                Finding::Done,
                format!(
                    "streams: every structure the sliced loops cache is only read or only \
                     written, each byte once, all by one stride; a launch may pick lines up to \
                     {bytes} B where its block leaves room for them"
                ),
                None,
            ));
        }
        if let (true, Some(bytes)) = (t.applied, t.dynamic_shared_bytes) {
            lines.push(
                SummaryEntry::new(
                    Finding::Analysis,
                    format!(
                "dynamic shared memory: launches give at most {bytes} B; the line buffer takes \
                 what the budget leaves beside it"
            ),
                    None,
                )
                .hinted(Some(Hint {
                    option: "dynamic-shared",
                    value: None,
                    effect: "",
                })),
            );
        }
        if let (Some(all), Some(one)) = (t.warps_with_lines, t.warps_with_a_line) {
            lines.push(SummaryEntry::new(
                Finding::Analysis,
                format!(
                "warp threshold: at blocks of {} threads ({} warps) the buffer gives the first {} \
                 warps a line for every structure and the first {} a line for one; the others \
                 go direct",
                t.max_threads,
                t.max_threads.div_ceil(32),
                all,
                one
            ),
                None,
            ));
        }
        for p in &t.predictions {
            lines.push(
                SummaryEntry::new(
                    Finding::Analysis,
                    format!(
                        "structure `{}` in loop at {}: {}{}",
                        p.argument,
                        p.loop_header,
                        p.decision_text(),
                        p.sectors
                            .as_ref()
                            .map(|f| format!("; {}", f.describe()))
                            .unwrap_or_default()
                    ),
                    Some(p.loop_header.clone()),
                )
                .hinted(p.monitoring_decides().then_some(transform::MONITORING_HINT)),
            );
        }
        for r in &t.rereads {
            lines.push(SummaryEntry::new(
                Finding::Analysis,
                format!(
                "structure `{}` in loop at {}: read again on every iteration of the inner loop \
                 at {}; cached although read-only (between two reads the hardware L1 loses it)",
                r.argument, r.loop_header, r.inner_loop
            ),
                Some(r.loop_header.clone()),
            ));
        }
        for r in &t.apart_by_checks {
            lines.push(SummaryEntry::new(
                Finding::Analysis,
                format!(
                    "loop at {}: run-time alias checks guard it, and found {} apart from \
                     everything else it accesses: taken as restrict there",
                    r.loop_header,
                    r.arguments
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Some(r.loop_header.clone()),
            ));
        }
        for r in &t.line_runs {
            lines.push(SummaryEntry::new(
                Finding::Analysis,
                format!(
                    "{} in loop at {}: {}",
                    if r.applied {
                        "line runs"
                    } else {
                        "no line runs"
                    },
                    r.loop_header,
                    r.detail
                ),
                Some(r.loop_header.clone()),
            ));
        }
        for l in &t.lane_tests {
            let names: Vec<String> = l.arguments.iter().map(|a| format!("`{a}`")).collect();
            lines.push(SummaryEntry::new(
                Finding::Analysis,
                format!(
                    "lane test in loop at {}: {} cached only where a warp's neighbouring lanes \
                 access them at least {} B apart (tested at run time); closer lanes share the \
                 hardware's L1 lines, which serve them as well",
                    l.loop_header,
                    names.join(", "),
                    l.min_bytes
                ),
                Some(l.loop_header.clone()),
            ));
        }
        for d in &t.accesses_direct {
            lines.push(SummaryEntry::new(
                Finding::Missed,
                format!(
                    "direct {:?} of `{}`{}: {}",
                    d.kind,
                    d.argument,
                    d.location
                        .as_ref()
                        .map(|at| format!(" at {at}"))
                        .unwrap_or_default(),
                    d.reason
                ),
                None,
            ));
        }
        // Reasons name what was left as it was: the whole kernel, or some of
        // its loops and structures when the rest was transformed.
        let left = if t.applied {
            "left alone"
        } else {
            "not transformed"
        };
        for r in &t.reasons {
            lines.push(
                SummaryEntry::new(Finding::Missed, format!("{left}: {r}"), None).hinted(r.hint()),
            );
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_transforms_and_merges_are_internal_failures() {
        let mut report = Report::default();
        assert_eq!(report.internal_failure(), None);
        report.device_rewrites = Some(rewrites::RewriteReport {
            kept_nested: vec![rewrites::KeptLoop {
                kernel: "k".into(),
                outer: "for.body".into(),
                reason: "its inner loops are entered only after more than 3 tests".into(),
                failed: false,
            }],
            ..Default::default()
        });
        assert_eq!(report.internal_failure(), None, "a loop kept by choice");
        let tuning = report.device_rewrites.as_mut().unwrap();
        tuning.kept_nested[0].failed = true;
        tuning.kept_nested[0].reason = "merging failed: the verifier says so".into();
        assert_eq!(
            report.internal_failure().as_deref(),
            Some("kernel `k`: merging failed: the verifier says so")
        );
        report.kernels.push(KernelReport {
            name: "t".into(),
            transform: TransformReport {
                reasons: vec![Reason::InternalError {
                    message: "a panic".into(),
                }],
                ..Default::default()
            },
            ..Default::default()
        });
        assert_eq!(
            report.internal_failure().as_deref(),
            Some("kernel `t`: the transform failed: a panic")
        );
    }
}

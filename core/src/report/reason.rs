//! Why a kernel, or one of its loops, was left as it was: one variant per
//! cause, its text by `Display`. A reason that an option changes names that
//! option as a [`Hint`] in the plugin's spelling; each front end writes the
//! hint in its own (the plugin `-mllvm -sl1-NAME`, the driver its flag).

use std::fmt;

use crate::option_list::Hint;
use serde::{Deserialize, Serialize};

/// Why S-L1 left a kernel or a loop as it was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// The transform is off (`Options::transform`).
    Disabled,
    /// The kernel is compiled without optimisation (`optnone`, clang's
    /// -O0): its loops are not in the form S-L1 reads.
    Unoptimized,
    /// The module already has this kernel's line buffer.
    AlreadyTransformed {
        buffer: String,
    },
    /// The kernel uses dynamic shared memory and no most was declared.
    DynamicSharedUnknown,
    /// What the kernel's shared memory leaves of the budget cannot give a
    /// warp one line each.
    NoRoomForLines {
        kernel_bytes: u64,
        with_dynamic: bool,
        left: u64,
        budget: u64,
    },
    NoMainLoop,
    /// A deeper loop nest works on local memory, which the hardware L1
    /// serves (`transform::local_nests`).
    LocalNest {
        loop_at: String,
        levels: u32,
        accesses: usize,
    },
    TooLarge {
        loop_at: String,
        accesses: usize,
        instructions: usize,
        most_accesses: usize,
        most_instructions: usize,
    },
    LoopLimit {
        loop_at: String,
        most: usize,
    },
    /// The loop steps by the block or grid size.
    CooperativeStride {
        loop_at: String,
        scope: String,
        registers: String,
    },
    /// At most one lane of a warp runs the loop.
    LoneLane {
        loop_at: String,
        guard: String,
    },
    NothingPredictedToPay {
        loop_at: String,
    },
    /// The loop would cache only structures it reads.
    OnlyReads {
        loop_at: String,
        structures: String,
        /// Structures accessed only outside the inner loops, and whether
        /// they are several.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cold: Option<(String, bool)>,
    },
    /// The loop only reads its structures, 4 or 8 B a step, which the late
    /// device rewrite reads 16 B at a time where aligned.
    LeftToVectorLoads {
        loop_at: String,
        structures: String,
    },
    /// The loop's inner loops' trip counts depend on loaded data: the
    /// device rewrite that merges them makes a warp's threads advance
    /// together, which per-thread lines would split again.
    LeftToLoopMerge {
        loop_at: String,
        inner: String,
    },
    NoCacheableAccess {
        loop_at: String,
        example: String,
    },
    UntracedAddress {
        loop_at: String,
        what: String,
    },
    WarpCollective {
        loop_at: String,
    },
    Irreducible {
        loop_at: String,
    },
    /// The transform failed; the kernel was put back.
    InternalError {
        message: String,
    },
}

impl Reason {
    /// The option that changes this decision, if one does.
    pub fn hint(&self) -> Option<Hint> {
        let hint = |option, value, effect| {
            Some(Hint {
                option,
                value,
                effect,
            })
        };
        match self {
            Reason::Disabled => hint("disable", None, ""),
            Reason::DynamicSharedUnknown => hint(
                "dynamic-shared",
                Some("BYTES"),
                ", the most its launches give, lets it take lines from the rest of the budget",
            ),
            Reason::OnlyReads { .. } => {
                hint("cache-read-only", None, "caches them, as the paper does")
            }
            Reason::LeftToVectorLoads { .. } => hint("no-vector-loads", None, "caches them"),
            Reason::LeftToLoopMerge { .. } => hint("no-loop-merging", None, "caches it"),
            Reason::InternalError { .. } => hint("disable", None, "skips the transform"),
            _ => None,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Disabled => write!(f, "transform disabled"),
            Reason::Unoptimized => write!(
                f,
                "the device code is compiled at -O0 (optnone): S-L1 needs the device compile at \
                 -O1 or above (nvcc's -O is the host code's; sl1-nvcc keeps device code \
                 optimised)"
            ),
            Reason::AlreadyTransformed { buffer } => write!(
                f,
                "already transformed by S-L1 (the module has `{buffer}`); left as it is"
            ),
            Reason::DynamicSharedUnknown => write!(
                f,
                "kernel uses dynamic shared memory (extern __shared__): its size is unknown at \
                 compile time, so S-L1 stays off"
            ),
            Reason::NoRoomForLines {
                kernel_bytes,
                with_dynamic,
                left,
                budget,
            } => write!(
                f,
                "the kernel already uses {kernel_bytes} B of {} shared memory; the {left} B left \
                 of the {budget} B budget cannot give a warp one line each, so S-L1 stays off",
                if *with_dynamic {
                    "static and declared dynamic"
                } else {
                    "static"
                },
            ),
            Reason::NoMainLoop => write!(f, "no main loop with data-structure accesses"),
            Reason::LocalNest {
                loop_at,
                levels,
                accesses,
            } => write!(
                f,
                "the loop nest at {loop_at} ({levels} levels deep, deeper than every loop the \
                 cache would take) works on local memory ({accesses} accesses of private arrays \
                 kept off registers), which the hardware L1 serves; the line buffer would take \
                 shared memory from that L1 for shallower loops, so S-L1 stays off"
            ),
            Reason::TooLarge {
                loop_at,
                accesses,
                instructions,
                most_accesses,
                most_instructions,
            } => write!(
                f,
                "loop at {loop_at}: too large ({accesses} accesses, {instructions} instructions; \
                 S-L1 takes loops of up to {most_accesses} and {most_instructions}): it copies a \
                 loop up to four times, and the compile time would grow with the copies; left \
                 as it is"
            ),
            Reason::LoopLimit { loop_at, most } => write!(
                f,
                "loop at {loop_at}: the kernel's first {most} main loops are transformed already \
                 (each re-analyses the growing kernel); left as it is"
            ),
            Reason::CooperativeStride {
                loop_at,
                scope,
                registers,
            } => write!(
                f,
                "loop at {loop_at}: steps by the {scope} size ({registers}): a thread's \
                 iterations are that many elements apart, so a private line is never hit again; \
                 left as it is"
            ),
            Reason::LoneLane { loop_at, guard } => write!(
                f,
                "loop at {loop_at}: at most one lane of each warp runs it (the branch of {guard} \
                 lets one lane in, as `if (threadIdx.x == 0)` does): that thread's lines do not \
                 thrash the hardware L1, and the cache's checks would only lengthen its serial \
                 path; left as it is"
            ),
            Reason::NothingPredictedToPay { loop_at } => write!(
                f,
                "loop at {loop_at}: no structure is predicted to pay for a line (each \
                 structure's prediction says why); left as it is"
            ),
            Reason::LeftToVectorLoads {
                loop_at,
                structures,
            } => write!(
                f,
                "loop at {loop_at}: only reads its structures ({structures}), 4 or 8 B a \
                 step, which the device rewrite reads 16 B at a time where aligned: left \
                 to it"
            ),
            Reason::LeftToLoopMerge { loop_at, inner } => write!(
                f,
                "loop at {loop_at}: the trip counts of its inner loops ({inner}) depend on \
                 loaded data; the device rewrite that merges them into it makes a warp's \
                 threads advance together, which lines, whose runs end where each thread's \
                 lines do, would split again (an atomicCAS retry loop cached so ran 1.1x-7x \
                 the merged loop's time on the H200): left to the merge"
            ),
            Reason::OnlyReads {
                loop_at,
                structures,
                cold,
            } => {
                write!(
                    f,
                    "loop at {loop_at}: caches nothing but structures it only reads \
                     ({structures}), which the hardware L1 serves well (a sector per thread \
                     does not thrash it)"
                )?;
                if let Some((names, several)) = cold {
                    write!(
                        f,
                        "; {names} {} accessed only outside the inner loops, an inner loop's \
                         trip count times less often: a line would save little and cost every \
                         thread registers and shared memory",
                        if *several { "are" } else { "is" }
                    )?;
                }
                write!(f, "; left as it is")
            }
            Reason::NoCacheableAccess { loop_at, example } => write!(
                f,
                "loop at {loop_at}: no access can go through the cache (e.g. {example})"
            ),
            Reason::UntracedAddress { loop_at, what } => write!(
                f,
                "loop at {loop_at}: an access's address is not traced to one argument ({what})"
            ),
            Reason::WarpCollective { loop_at } => write!(
                f,
                "loop at {loop_at}: contains a warp collective (shuffle, vote, __syncwarp...); \
                 slicing would split threads that must meet at it"
            ),
            Reason::Irreducible { loop_at } => {
                write!(f, "loop at {loop_at}: irreducible control flow")
            }
            Reason::InternalError { message } => write!(
                f,
                "internal error, so the kernel was left exactly as it was: {message}; please \
                 report it"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_round_trip_through_the_report_json() {
        let reasons = vec![
            Reason::Disabled,
            Reason::OnlyReads {
                loop_at: "for.body".into(),
                structures: "`a`".into(),
                cold: Some(("`b`".into(), false)),
            },
            Reason::InternalError {
                message: "boom".into(),
            },
        ];
        let json = serde_json::to_string(&reasons).unwrap();
        assert!(json.contains(r#""kind":"only_reads""#), "{json}");
        let back: Vec<Reason> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, reasons);
    }

    #[test]
    fn the_hints_name_options_of_the_plugin() {
        for reason in [
            Reason::Disabled,
            Reason::DynamicSharedUnknown,
            Reason::InternalError {
                message: String::new(),
            },
            Reason::OnlyReads {
                loop_at: String::new(),
                structures: String::new(),
                cold: None,
            },
        ] {
            let hint = reason.hint().expect("a hint");
            assert!(
                crate::option_list::pass_option(hint.option).is_some(),
                "{}",
                hint.option
            );
        }
        assert_eq!(Reason::NoMainLoop.hint(), None);
    }
}

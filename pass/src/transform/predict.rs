//! Static prediction of a structure's hit rate in one main loop (the S-L1
//! paper's section 6): when every access of the structure runs on every
//! iteration of one loop, at addresses a constant apart that move by a
//! constant stride, a one-line cache's hit rate follows from the stride, the
//! bytes touched per iteration and the line size. A loop whose structures are
//! all predicted needs no monitoring slice; a structure predicted to hit too
//! rarely is left direct.

use crate::analysis::accesses::Access;
use crate::analysis::affine::{AffineAddress, LoopScope};
use crate::analysis::KernelAnalysis;

use super::cost::Site;
use super::reports::{Decision, DirectReason};

/// What the analysis predicts for one structure in one loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prediction {
    /// Every access moves by `stride` bytes per iteration; a one-line cache
    /// hits `hit_percent` of the `sites` accesses of an iteration.
    Static {
        stride: i64,
        hit_percent: u32,
        sites: u32,
        /// Where each access sits in an iteration, from the first one's
        /// address (empty where the distances are unknown).
        layout: Vec<Site>,
    },
    /// Only the monitoring slice can tell, because of this.
    Dynamic(String),
    /// An address is loaded in the loop (`in[idx[i]]`): a thread's line is
    /// hit again only when consecutive indices fall in it, which nothing
    /// here predicts. Left direct (`DirectReason::Indirect`).
    Indirect,
}

/// A predicted hit rate at or below this cannot pay for a line (the
/// decision's own bar: more hits than misses).
pub const MIN_HIT_PERCENT: u32 = 50;

pub use sl1_core::report::transform::{PredictionReport, MONITORING_HINT};

/// Iterations the one-line cache is simulated for, per starting alignment.
const SIMULATED_ITERATIONS: i64 = 256;

/// Predicts the hit rate of a one-line cache of `line` bytes for one
/// structure, from its cacheable `accesses` in a main loop.
pub fn predict(k: &KernelAnalysis<'_>, accesses: &[&Access<'_>], line: u32) -> Prediction {
    match affine_accesses(k, accesses) {
        Ok(forms) => {
            let first = forms[0].0.clone();
            let sites: Vec<(i64, i64)> = forms
                .iter()
                .map(|(f, size)| (first.distance_to(f).unwrap_or(0), *size as i64))
                .collect();
            let layout = sites
                .iter()
                .zip(accesses)
                .map(|(&(offset, bytes), a)| Site {
                    kind: a.kind,
                    offset,
                    bytes: bytes as u64,
                })
                .collect();
            Prediction::Static {
                stride: first.stride,
                hit_percent: simulate(&sites, first.stride, i64::from(line)),
                sites: sites.len() as u32,
                layout,
            }
        }
        Err(Unpredicted::Indirect) => Prediction::Indirect,
        // Sites whose distance is unknown, each moving a line or more per
        // iteration: none finds its line again, whatever the distance
        // (`for (i = 4 * tid; ...; i += 4 * THREADS)` over two rows).
        Err(Unpredicted::UnknownDistance { stride, sites })
            if stride.unsigned_abs() >= u64::from(line) =>
        {
            Prediction::Static {
                stride,
                hit_percent: 0,
                sites,
                layout: Vec::new(),
            }
        }
        Err(Unpredicted::UnknownDistance { .. }) => {
            Prediction::Dynamic("accesses are not a constant distance apart".into())
        }
        Err(Unpredicted::Other(why)) => Prediction::Dynamic(why),
    }
}

/// Hit rate, in percent, of a one-line cache of `line` bytes for accesses
/// at `(offset, size)` in program order, moving by `stride` per iteration,
/// averaged over where the first access starts in its line. An access that
/// straddles two lines counts as a miss (the runtime flushes and goes
/// direct there).
fn simulate(sites: &[(i64, i64)], stride: i64, line: i64) -> u32 {
    let (mut hits, mut total) = (0i64, 0i64);
    let step = sites
        .iter()
        .map(|&(_, size)| size)
        .min()
        .unwrap_or(1)
        .max(1);
    for start in (0..line).step_by(step as usize) {
        let mut tag = None;
        for iteration in 0..SIMULATED_ITERATIONS {
            for &(offset, size) in sites {
                let address = start + stride * iteration + offset;
                let first_line = address.div_euclid(line);
                let last_line = (address + size - 1).div_euclid(line);
                total += 1;
                if first_line != last_line {
                    tag = None;
                } else if tag == Some(first_line) {
                    hits += 1;
                } else {
                    tag = Some(first_line);
                }
            }
        }
    }
    ((100 * hits + total / 2) / total.max(1)) as u32
}

/// Why a structure's accesses have no prediction.
enum Unpredicted {
    /// An address is loaded in the loop.
    Indirect,
    /// The accesses move alike, by `stride` per iteration, at distances
    /// the analysis cannot tell.
    UnknownDistance {
        stride: i64,
        sites: u32,
    },
    Other(String),
}

impl From<&str> for Unpredicted {
    fn from(why: &str) -> Self {
        Unpredicted::Other(why.to_string())
    }
}

/// Each access's affine address in its loop, with its size, when all of them
/// sit in one loop, run on every iteration, move alike and lie a constant
/// apart.
fn affine_accesses(
    k: &KernelAnalysis<'_>,
    accesses: &[&Access<'_>],
) -> Result<Vec<(AffineAddress, u64)>, Unpredicted> {
    let first = accesses.first().ok_or("no access")?;
    let inner = k
        .loops
        .innermost_loop_of(first.block)
        .ok_or("not in a loop")?;
    let scope = LoopScope::new(k.function, &k.blocks, &k.loops.loops[inner]);
    let mut forms: Vec<(AffineAddress, u64)> = Vec::new();
    let mut unknown_distance = false;
    for a in accesses {
        if k.loops.innermost_loop_of(a.block) != Some(inner) {
            return Err("accessed from more than one loop".into());
        }
        if !scope.runs_every_iteration(a.block) {
            return Err("accessed on some iterations only".into());
        }
        let pointer = a.pointer().ok_or("an access without an address")?;
        let form = scope.affine(pointer).map_err(|why| {
            if why == crate::analysis::affine::INDIRECT {
                Unpredicted::Indirect
            } else {
                Unpredicted::Other(format!("address {why}"))
            }
        })?;
        if let Some((f0, _)) = forms.first() {
            if f0.stride != form.stride {
                return Err("accesses move by different strides".into());
            }
            unknown_distance |= f0.distance_to(&form).is_none();
        }
        forms.push((form, a.size));
    }
    if unknown_distance {
        return Err(Unpredicted::UnknownDistance {
            stride: forms[0].0.stride,
            sites: forms.len() as u32,
        });
    }
    Ok(forms)
}

/// What a prediction decides on its own: the stride and hit rate, and
/// cached or direct (a cached structure's gain and how its loop decides
/// are added by the plan).
///
/// Structures without a prediction stay direct. Measured on the H100
/// (2026-11-25): every monitored loop lost, none gained: in the do-no-harm
/// suite `stencil3` 0.72x, `gather` 0.85x, `scatter` 0.92x (128 MiB); in
/// HeCBench `epistasis` 0.54x, `contract` 0.71x, `adv` 0.78x, `aop` 0.89x,
/// `cbsfil` 0.96x; and none of the ten apps needs monitoring. Monitored,
/// the indirect structures of `gather`, `scatter` and `lut` simulated 0%,
/// 0% and 1.5% hits and were not cached, and the monitoring alone cost
/// `gather` 0.85x and `scatter` 0.92x of the build without S-L1.
pub fn describe(p: &Prediction, line: u32) -> (Option<i64>, Option<u32>, Decision) {
    let direct = |reason| Decision::Direct { reason };
    match p {
        Prediction::Static {
            stride,
            hit_percent,
            ..
        } if *hit_percent <= MIN_HIT_PERCENT => (
            Some(*stride),
            Some(*hit_percent),
            direct(DirectReason::LowHitRate {
                stride: *stride,
                line_bytes: line,
                hit_percent: *hit_percent,
            }),
        ),
        Prediction::Static {
            stride,
            hit_percent,
            ..
        } => (
            Some(*stride),
            Some(*hit_percent),
            Decision::Cached {
                gain: None,
                decided: None,
            },
        ),
        Prediction::Dynamic(why) => (
            None,
            None,
            direct(DirectReason::Unpredicted { why: why.clone() }),
        ),
        Prediction::Indirect => (None, None, direct(DirectReason::Indirect)),
    }
}

#[cfg(test)]
mod tests {
    use super::simulate;

    #[test]
    fn unit_strides_miss_once_per_line() {
        assert_eq!(simulate(&[(0, 1)], 1, 16), 93);
        assert_eq!(simulate(&[(0, 1)], 1, 32), 96);
        assert_eq!(simulate(&[(0, 4)], 4, 16), 75);
        assert_eq!(simulate(&[(0, 4)], -4, 16), 75);
    }

    #[test]
    fn strides_of_a_line_or_more_never_hit() {
        assert_eq!(simulate(&[(0, 4)], 16, 16), 0);
        assert_eq!(simulate(&[(0, 4)], 256, 16), 0);
    }

    #[test]
    fn invariant_addresses_always_hit_and_far_apart_ones_thrash() {
        assert_eq!(simulate(&[(0, 8)], 0, 16), 100);
        assert_eq!(simulate(&[(0, 4), (64, 4)], 0, 16), 0);
    }

    #[test]
    fn neighbours_share_the_line_and_straddles_miss() {
        // in[i] and in[i + 1], 4-byte: the second mostly hits the first's line.
        assert_eq!(simulate(&[(0, 4), (4, 4)], 4, 16), 87);
        // 4 bytes at stride 5: every access that crosses a line misses.
        assert!(simulate(&[(0, 4)], 5, 16) <= super::MIN_HIT_PERCENT);
    }
}

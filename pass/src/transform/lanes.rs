//! Structures the warp's own coalescing serves. A thread-private line pays
//! where the hardware's lines do not: lanes far apart each pull their own
//! 128 B L1 line, and resident threads outgrow the L1. Where a warp's lanes
//! access a structure less than an L1 line apart (per-thread chunks of a few
//! elements: a grid of two thousand blocks), their loads and stores share
//! lines and sectors, the L1 keeps what the next iteration reads, and a
//! per-thread line only adds the cache's work. Measured on the H100
//! (2026-11-25, 256 MiB, do-no-harm suite, docs/benchmarks.md): at
//! 2112x1024 threads the lanes of `soa` lie 25 B apart and S-L1 ran 0.80x
//! of the build without it (0.158 against 0.127 ms at each build's best),
//! `vec16` 62 B apart 0.87x, `aos` 0.93x, `stencil3` 0.95x; with longer
//! chunks the same kernels gain from the cache (at 132x256 threads, `soa`'s
//! lanes 1.6 KB apart: 0.158 against 0.336 ms; `vec16` at 132x512: 0.164
//! against 0.379 ms).
//!
//! Two kinds of structure gain whatever the lanes' distance, and a loop
//! with one of them is not tested at all: those a thread reads and writes
//! (a global store does not keep its line in the L1, so the next read goes
//! to L2: `saxpy`'s `y` 2.5x at 62 B) and those accessed in pieces under
//! 4 B (a request per byte or half-word: `bytes_u8` 9.6x, `halves_u16`
//! 4.9x, `upper`, `wc`). Arguments without restrict are tested as a group
//! (their lines are looked up together): their loop is declined only when
//! all are close. Loops with a block barrier are not tested (their version
//! is the block's).
//!
//! Where the IR gives the distance (`analysis::lane_step`: every lane
//! reading `xx[j]` is 0 B apart, `keys + 16 * i` words 64 B), the test is
//! settled at compile time: close structures are left direct, and a loop
//! with nothing left stays as it was, without the buffer and registers a
//! test declined at run time still costs (HeCBench `haccmk` 0.69x and
//! `jenkins-hash` 0.80x of the build without S-L1 on the H100, 2026-11-25,
//! both declined at run time). Otherwise it runs once per entry to the
//! loop, in its preheader, which both the monitoring slice and the decision
//! follow: each lane computes the structure's address at the loop's entry
//! from its affine form, and compares it with its neighbour's
//! (`shfl.sync.bfly`), where the neighbour is there.

use crate::llvm::build;
use std::collections::{BTreeMap, HashMap};

use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate, LLVMTypeKind};

use crate::analysis::accesses::{Access, AccessKind};
use crate::analysis::affine::{AffineAddress, LoopScope};
use crate::analysis::lane_step::LaneSteps;
use crate::analysis::KernelAnalysis;
use crate::llvm::edit::{self, Builder};

use super::cost::SECTOR_BYTES;
use super::reports::DirectReason;
use super::slice::{LaneTests, LoopSlice};
use super::state::{const_int, State};

/// Bytes of a hardware L1 line: lanes closer than this share lines.
pub const HARDWARE_LINE_BYTES: i64 = 128;

/// Accesses narrower than this gain from lines whatever the lanes do.
const NARROW_BYTES: u64 = 4;

/// A main loop's accesses by structure.
fn by_structure<'a, 'm>(
    k: &KernelAnalysis<'m>,
    in_loop: &[&'a Access<'m>],
) -> BTreeMap<u32, Vec<&'a Access<'m>>> {
    let mut by_structure: BTreeMap<u32, Vec<&Access<'m>>> = BTreeMap::new();
    for a in in_loop {
        if let Some(ds) = k.data_structure_of(a) {
            by_structure.entry(ds.id).or_default().push(a);
        }
    }
    by_structure
}

/// A structure a thread reads and writes, or accesses in pieces under 4 B:
/// its lines gain whatever its lanes' distance.
fn gains_anyway(accesses: &[&Access<'_>]) -> bool {
    let loads = accesses.iter().any(|a| a.kind == AccessKind::Load);
    let stores = accesses.iter().any(|a| a.kind == AccessKind::Store);
    (loads && stores) || accesses.iter().any(|a| a.size < NARROW_BYTES)
}

/// The structures of a main loop under the lane test, with their accesses
/// in the loop.
fn tested_structures<'a, 'm>(
    k: &KernelAnalysis<'m>,
    in_loop: &[&'a Access<'m>],
) -> BTreeMap<u32, Vec<&'a Access<'m>>> {
    let mut by_structure = by_structure(k, in_loop);
    // Beside a structure that gains anyway, the others ride along as before:
    // its lines take shared memory from the L1 they would be left to
    // (`saxpy`'s `x` direct beside a cached `y`: 2.37x against 2.50x).
    if by_structure.values().any(|a| gains_anyway(a)) {
        return BTreeMap::new();
    }
    by_structure.retain(|_, accesses| !accesses.iter().any(|a| a.kind.is_atomic()));
    by_structure
}

/// The structures of a main loop whose warp's lanes all fall in one
/// sector at every access (`lane_step`: every lane reading `x[j]` is 0 B
/// apart), with that distance: one request serves the warp, and a line per
/// thread would fill the same bytes once for every lane. Unlike the lane
/// test, whatever the loop's other structures are: beside a structure that
/// gains anyway, and in an aliased group whose other members do pay (a
/// row-per-thread product without restrict reading a broadcast vector ran
/// 2.2x slower than the build without S-L1 with the vector cached, H200,
/// 2026-11-28). Not structures that gain anyway themselves, nor atomics.
pub fn in_one_sector<'m>(k: &KernelAnalysis<'m>, in_loop: &[&Access<'m>]) -> BTreeMap<u32, i64> {
    let mut steps = LaneSteps::new(k);
    by_structure(k, in_loop)
        .into_iter()
        .filter(|(_, accesses)| {
            !gains_anyway(accesses) && !accesses.iter().any(|a| a.kind.is_atomic())
        })
        .filter_map(|(id, accesses)| {
            let mut widest = 0;
            let mut farthest = 0;
            for a in &accesses {
                farthest = farthest.max(steps.of(a.pointer()?)?.checked_abs()?);
                widest = widest.max(a.size);
            }
            let span = farthest.checked_mul(31)?.checked_add(widest as i64)?;
            (span <= SECTOR_BYTES as i64).then_some((id, farthest))
        })
        .collect()
}

/// The report's reason for a structure whose lanes fall in one sector.
pub fn one_sector_reason(distance: i64) -> DirectReason {
    DirectReason::OneSector {
        distance,
        sector_bytes: SECTOR_BYTES,
    }
}

/// The structures of a main loop under the run-time lane test, each with
/// the affine address of its first access (symbols: the loop's induction
/// variables and values from before the loop).
pub fn lane_tested<'m>(
    k: &KernelAnalysis<'m>,
    scope: &LoopScope<'_, 'm>,
    in_loop: &[&Access<'m>],
) -> BTreeMap<u32, AffineAddress> {
    tested_structures(k, in_loop)
        .into_iter()
        .filter_map(|(id, accesses)| {
            let form = scope.affine(accesses[0].pointer()?).ok()?;
            Some((id, form))
        })
        .collect()
}

/// The distance between neighbouring lanes' first accesses of each
/// structure under the test, where the IR settles it (`lane_step`: also
/// for accesses in inner loops, whose counters the affine form of the
/// main loop does not follow): the test then costs nothing at run time.
pub fn static_distances<'m>(k: &KernelAnalysis<'m>, in_loop: &[&Access<'m>]) -> BTreeMap<u32, i64> {
    let mut steps = LaneSteps::new(k);
    tested_structures(k, in_loop)
        .into_iter()
        .filter_map(|(id, accesses)| {
            let distance = steps.of(accesses[0].pointer()?)?.checked_abs()?;
            Some((id, distance))
        })
        .collect()
}

/// `forms` without the terms that are the same in every lane (their step
/// from lane to lane is 0: `lane_step`), which cancel out of the distance
/// the run-time test measures.
pub fn without_uniform_terms(
    k: &KernelAnalysis<'_>,
    mut forms: BTreeMap<u32, AffineAddress>,
) -> BTreeMap<u32, AffineAddress> {
    let mut steps = LaneSteps::new(k);
    for form in forms.values_mut() {
        form.terms.retain(|&symbol, _| {
            crate::llvm::ir::Value::from_raw(symbol as LLVMValueRef).and_then(|v| steps.of(v))
                != Some(0)
        });
    }
    forms
}

/// Whether lanes `distance` bytes apart share the hardware's lines.
pub fn close(distance: i64) -> bool {
    distance < HARDWARE_LINE_BYTES
}

/// The structures among `candidates` (those a loop would cache) that the
/// settled test leaves direct, with their distance: restrict ones whose
/// lanes are close, and all of them where every one is close. Arguments
/// without restrict are looked up as a group, so the test takes them only
/// all together: a direct access beside a cached alias could miss its
/// dirty line.
pub fn close_statically(
    k: &KernelAnalysis<'_>,
    distances: &BTreeMap<u32, i64>,
    candidates: &[u32],
) -> Vec<(u32, i64)> {
    let close_at = |id: &u32| distances.get(id).copied().filter(|&d| close(d));
    let all = !candidates.is_empty() && candidates.iter().all(|id| close_at(id).is_some());
    candidates
        .iter()
        .filter(|&&id| all || k.data_structures[id as usize].restrict)
        .filter_map(|id| Some((*id, close_at(id)?)))
        .collect()
}

/// The report's reason for a structure the settled test leaves direct.
pub fn close_reason(distance: i64) -> DirectReason {
    DirectReason::LanesClose {
        distance,
        hardware_line_bytes: HARDWARE_LINE_BYTES,
    }
}

impl LoopSlice<'_, '_> {
    /// The lane tests of `states`, emitted at the end of `preheader`. None
    /// in loops with a block barrier (their version is the block's).
    pub(super) fn emit_lane_tests(
        &self,
        preheader: LLVMBasicBlockRef,
        states: &[State],
        slots: &HashMap<usize, (LLVMValueRef, LLVMTypeRef)>,
    ) -> LaneTests {
        if self.uniform {
            return LaneTests::default();
        }
        let b = Builder::before(edit::terminator(preheader));
        let function = self.k.function.as_raw();
        let inside = |v: LLVMValueRef| {
            build::is_instruction(v) && self.blocks.contains(&build::instruction_block(v))
        };
        let i1t = build::i1_type(build::context_of(function));
        let apart: BTreeMap<u32, LLVMValueRef> = states
            .iter()
            .filter_map(|s| {
                if let Some(&distance) = self.lane_distances.get(&s.id) {
                    let apart = i64::from(!close(distance));
                    return Some((s.id, const_int(i1t, apart)));
                }
                let form = self.lane_forms.get(&s.id)?;
                emit_lanes_apart(&b, function, form, slots, &inside).map(|apart| (s.id, apart))
            })
            .collect();
        let declined = all_close(&b, &apart, states);
        LaneTests { apart, declined }
    }
}

/// Whether the lane test declines every one of `states` (each tested, each
/// with lanes closer than a line), or None where one is not tested.
fn all_close(
    b: &Builder,
    lanes_apart: &BTreeMap<u32, LLVMValueRef>,
    states: &[State],
) -> Option<LLVMValueRef> {
    let mut any_apart = None;
    for s in states {
        let apart = *lanes_apart.get(&s.id)?;
        // An `or` of two i1 values of the preheader.
        any_apart = Some(match any_apart {
            None => apart,
            Some(a) => b.or(a, apart, c""),
        });
    }
    any_apart.map(|a| b.not(a, c"sl1.lanes.close"))
}

/// Where `value` comes in `function`: its argument number, or after the
/// arguments its instruction's place in block order; last for others
/// (globals), by name.
fn position(function: LLVMValueRef, value: LLVMValueRef) -> (usize, usize, String) {
    for i in 0..build::count_params(function) {
        if build::param(function, i) == value {
            return (0, i as usize, String::new());
        }
    }
    let mut n = 0;
    for block in edit::blocks(function) {
        for inst in edit::instructions(block) {
            if inst == value {
                return (1, n, String::new());
            }
            n += 1;
        }
    }
    let name = crate::llvm::ir::Value::from_raw(value).map_or_else(String::new, |v| v.name());
    (2, 0, name)
}

/// Emits, before `b`'s position, whether this lane and its neighbour
/// access the structure at `form` at least an L1 line apart, or the warp is
/// not all here (the test cannot tell): an i1. `slots` holds the stack slot
/// of each demoted header phi, by the phi; `inside` tells an instruction of
/// the loop, whose value at the entry is unknown (then no test: None).
fn emit_lanes_apart(
    b: &Builder,
    function: LLVMValueRef,
    form: &AffineAddress,
    slots: &HashMap<usize, (LLVMValueRef, LLVMTypeRef)>,
    inside: &dyn Fn(LLVMValueRef) -> bool,
) -> Option<LLVMValueRef> {
    let ctx = build::context_of(function);
    let i32t = build::i32_type(ctx);
    let r = b;
    // The terms in the function's order, not their addresses', so that
    // the output does not depend on where LLVM allocated the values.
    let mut terms = Vec::new();
    for (&symbol, &coefficient) in &form.terms {
        let (value, slot) = match slots.get(&symbol) {
            Some(&(slot, ty)) => (slot, Some(ty)),
            None => {
                let v = symbol as LLVMValueRef;
                if inside(v) {
                    return None;
                }
                (v, None)
            }
        };
        terms.push((position(function, value), value, slot, coefficient));
    }
    terms.sort_by(|a, b| a.0.cmp(&b.0));
    let mut address = const_int(i32t, form.constant);
    for (_, value, slot, coefficient) in terms {
        let value = match slot {
            Some(ty) => b.load(ty, value),
            None => value,
        };
        let low = match build::type_kind(build::type_of(value)) {
            LLVMTypeKind::LLVMPointerTypeKind => r.ptr_to_int(value, i32t, c""),
            LLVMTypeKind::LLVMIntegerTypeKind => match build::int_width(build::type_of(value)) {
                32 => value,
                w if w > 32 => r.trunc(value, i32t, c""),
                _ => r.zext(value, i32t, c""),
            },
            _ => return None,
        };
        let term = r.mul(low, const_int(i32t, coefficient), c"");
        address = r.add(address, term, c"");
    }
    // The low 32 bits suffice: lanes of one structure lie far less than
    // 4 GiB apart, and a wrong answer costs time, never correctness.
    // The lanes here exchange addresses; a lane whose neighbour is not
    // here (a block of fewer than 32 threads has a partial warp) cannot
    // tell, and caches.
    let active =
        crate::llvm::intrinsics::call_intrinsic(r, function, "llvm.nvvm.activemask", &mut [], c"");
    let lane = crate::llvm::intrinsics::call_intrinsic(
        r,
        function,
        "llvm.nvvm.read.ptx.sreg.laneid",
        &mut [],
        c"",
    );
    let partner = r.xor(lane, const_int(i32t, 1), c"");
    let shifted = r.lshr(active, partner, c"");
    let bit = r.and(shifted, const_int(i32t, 1), c"");
    let paired = r.icmp(
        LLVMIntPredicate::LLVMIntNE,
        bit,
        const_int(i32t, 0),
        c"sl1.lanes.paired",
    );
    let mut args = [active, address, const_int(i32t, 1), const_int(i32t, 0x1f)];
    let neighbour = crate::llvm::intrinsics::call_intrinsic(
        r,
        function,
        "llvm.nvvm.shfl.sync.bfly.i32",
        &mut args,
        c"sl1.lanes.neighbour",
    );
    let diff = r.sub(neighbour, address, c"");
    let negative = r.icmp(LLVMIntPredicate::LLVMIntSLT, diff, const_int(i32t, 0), c"");
    let minus = r.neg(diff, c"");
    let distance = r.select(negative, minus, diff, c"sl1.lanes.distance");
    let apart = r.icmp(
        LLVMIntPredicate::LLVMIntUGE,
        distance,
        const_int(i32t, HARDWARE_LINE_BYTES),
        c"",
    );
    let unknown = r.not(paired, c"");
    Some(r.or(apart, unknown, c"sl1.lanes.apart"))
}

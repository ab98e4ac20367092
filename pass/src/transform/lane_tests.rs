//! The lane test of a sliced loop (`lanes`), emitted once per entry to the
//! loop in its preheader: each lane computes a tested structure's address
//! at the entry from its affine form and compares it with its neighbour's
//! (`shfl.sync.bfly`), where the neighbour is there; a distance the IR
//! settles is a constant.

use std::collections::{BTreeMap, HashMap};

use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate, LLVMTypeKind};

use crate::analysis::affine::AffineAddress;
use crate::llvm::build;
use crate::llvm::edit::{self, Builder};

use super::lanes::{close, HARDWARE_LINE_BYTES};
use super::slice::LoopSlice;
use super::state::{const_int, State};

/// The lane tests of one entry to a loop, computed in its preheader.
#[derive(Default)]
pub(super) struct LaneTests {
    /// Per tested structure: whether the warp's neighbouring lanes access
    /// it an L1 line apart or more (an i1).
    pub(super) apart: BTreeMap<u32, LLVMValueRef>,
    /// Whether the loop caches nothing on this entry (an i1): the lanes of
    /// every structure are close. None where a structure is not tested.
    pub(super) declined: Option<LLVMValueRef>,
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
        if self.uniform() {
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
                if let Some(&distance) = self.chosen.lane_distances.get(&s.id) {
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

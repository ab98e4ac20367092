//! The lane test of a sliced loop (`lanes`), emitted once per entry to the
//! loop in its preheader: each lane computes a tested structure's address
//! at the entry from its affine form and compares it with its neighbour's
//! (`shfl.sync.bfly`), where the neighbour is there; a distance the IR
//! settles is a constant.

use std::collections::BTreeMap;

use crate::analysis::affine::AffineAddress;
use crate::llvm::ir::{Block, Function, IntPredicate, Value};
use crate::llvm::typed::TypedBuilder;

use super::lanes::{close, HARDWARE_LINE_BYTES};
use super::normal_form::PhiSlots;
use super::slice::LoopSlice;
use super::state::State;

/// The lane tests of one entry to a loop, computed in its preheader.
#[derive(Default)]
pub(super) struct LaneTests<'m> {
    /// Per tested structure: whether the warp's neighbouring lanes access
    /// it an L1 line apart or more (an i1).
    pub(super) apart: BTreeMap<u32, Value<'m>>,
    /// Whether the loop caches nothing on this entry (an i1): the lanes of
    /// every structure are close. None where a structure is not tested.
    pub(super) declined: Option<Value<'m>>,
}

impl<'m> LoopSlice<'_, 'm> {
    /// The lane tests of `states`, emitted at the end of `preheader`. None
    /// in loops with a block barrier (their version is the block's).
    pub(super) fn emit_lane_tests(
        &self,
        preheader: Block<'m>,
        states: &[State<'m>],
        slots: &PhiSlots<'m>,
    ) -> LaneTests<'m> {
        if self.uniform() {
            return LaneTests::default();
        }
        let b = TypedBuilder::before(preheader.terminator().expect("a preheader ends"));
        let function = self.k.function;
        let inside = |v: Value<'m>| self.contains(v);
        let i1t = function.int_type(1);
        let apart: BTreeMap<u32, Value<'m>> = states
            .iter()
            .filter_map(|s| {
                if let Some(&distance) = self.chosen.lane_distances.get(&s.id) {
                    let apart = i64::from(!close(distance));
                    return Some((s.id, i1t.signed(apart)));
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
fn all_close<'m>(
    b: &TypedBuilder<'m>,
    lanes_apart: &BTreeMap<u32, Value<'m>>,
    states: &[State<'m>],
) -> Option<Value<'m>> {
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
fn position<'m>(function: Function<'m>, value: Value<'m>) -> (usize, usize, String) {
    if let Some(i) = function.params().iter().position(|&p| p == value) {
        return (0, i, String::new());
    }
    let mut n = 0;
    for block in function.blocks() {
        for inst in block.instructions() {
            if inst == value {
                return (1, n, String::new());
            }
            n += 1;
        }
    }
    (2, 0, value.name())
}

/// Emits, before `b`'s position, whether this lane and its neighbour
/// access the structure at `form` at least an L1 line apart, or the warp is
/// not all here (the test cannot tell): an i1. `slots` holds the stack slot
/// of each demoted header phi, by the phi; `inside` tells an instruction of
/// the loop, whose value at the entry is unknown (then no test: None).
fn emit_lanes_apart<'m>(
    b: &TypedBuilder<'m>,
    function: Function<'m>,
    form: &AffineAddress,
    slots: &PhiSlots<'m>,
    inside: &dyn Fn(Value<'m>) -> bool,
) -> Option<Value<'m>> {
    let i32t = function.int_type(32);
    let int = |v: i64| i32t.signed(v);
    // The terms in the function's order, not their addresses', so that
    // the output does not depend on where LLVM allocated the values.
    let mut terms = Vec::new();
    for (&symbol, &coefficient) in &form.terms {
        let (value, slot) = match slots.get(&symbol) {
            Some(&(slot, ty)) => (slot, Some(ty)),
            None => {
                let v = Value::of_symbol(symbol)?;
                if inside(v) {
                    return None;
                }
                (v, None)
            }
        };
        terms.push((position(function, value), value, slot, coefficient));
    }
    terms.sort_by(|a, b| a.0.cmp(&b.0));
    let mut address = int(form.constant);
    for (_, value, slot, coefficient) in terms {
        let value = match slot {
            Some(ty) => b.load(ty, value),
            None => value,
        };
        let ty = value.ty();
        let low = if ty.is_pointer() {
            b.ptr_to_int(value, i32t, c"")
        } else {
            match ty.integer_width()? {
                32 => value,
                w if w > 32 => b.trunc(value, i32t, c""),
                _ => b.zext_to(value, i32t, c""),
            }
        };
        let term = b.mul(low, int(coefficient), c"");
        address = b.add(address, term, c"");
    }
    // The low 32 bits suffice: lanes of one structure lie far less than
    // 4 GiB apart, and a wrong answer costs time, never correctness.
    // The lanes here exchange addresses; a lane whose neighbour is not
    // here (a block of fewer than 32 threads has a partial warp) cannot
    // tell, and caches.
    let active = b.call_intrinsic(function, "llvm.nvvm.activemask", &[], c"");
    let lane = b.call_intrinsic(function, "llvm.nvvm.read.ptx.sreg.laneid", &[], c"");
    let partner = b.xor(lane, int(1), c"");
    let shifted = b.lshr(active, partner, c"");
    let bit = b.and(shifted, int(1), c"");
    let paired = b.icmp(IntPredicate::LLVMIntNE, bit, int(0), c"sl1.lanes.paired");
    let neighbour = b.call_intrinsic(
        function,
        "llvm.nvvm.shfl.sync.bfly.i32",
        &[active, address, int(1), int(0x1f)],
        c"sl1.lanes.neighbour",
    );
    let diff = b.sub(neighbour, address, c"");
    let negative = b.icmp(IntPredicate::LLVMIntSLT, diff, int(0), c"");
    let minus = b.neg(diff, c"");
    let distance = b.select(negative, minus, diff, c"sl1.lanes.distance");
    let apart = b.icmp(
        IntPredicate::LLVMIntUGE,
        distance,
        int(HARDWARE_LINE_BYTES),
        c"",
    );
    let unknown = b.not(paired, c"");
    Some(b.or(apart, unknown, c"sl1.lanes.apart"))
}

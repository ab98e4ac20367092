//! Device tuning: an index that a loop scales by a run-time stride in
//! 32-bit signed arithmetic is computed in 64 bits, as nvcc's code does.
//!
//! `a[r * ld + c]` with `int` operands is `sext(r *nsw ld +nsw c)`: scalar
//! evolution cannot carry the `nsw` of a product by a run-time value into
//! the recurrence, so the sign extension stays opaque and loop strength
//! reduction keeps a 32-bit index with a `mul.wide` and an add to form
//! every address. The same index in 64 bits (`sext(r) * sext(ld) +
//! sext(c)`, equal wherever the 32-bit one does not overflow, which `nsw`
//! promises) is a recurrence of 64-bit values, and the address becomes a
//! pointer that steps by `ld * 4` bytes. HeCBench `attention`'s column sums
//! (8 blocks, latency bound, H200, 2026-11-30): 5.66 -> 5.01 ms, nvcc's code
//! 4.07 (`docs/results/2026-11-30-h200-widened-indices.txt`). Loops whose
//! addresses `indexed_addresses` keeps as index arithmetic are left alone:
//! there no pointer is formed and 64-bit products would only cost more.

use std::collections::HashMap;

use inkwell::module::Module;

use super::indexed_addresses::{crowded_step, steps_invariantly};
use crate::analysis::loop_forest;
use crate::llvm::ir::{defined_functions, Block, Opcode, Value};
use crate::llvm::typed::TypedBuilder;

/// How deep an index's arithmetic is followed.
const MAX_DEPTH: u32 = 8;

/// Widens the eligible indices of `module`'s innermost loops; returns how
/// many.
pub fn widen_scaled_indices(module: &Module<'_>) -> usize {
    let mut widened = 0;
    for function in defined_functions(module) {
        let (blocks, forest) = loop_forest(function);
        let index = crate::llvm::ir::block_indices(&blocks);
        let mut roots = Vec::new();
        for (l, lp) in forest.loops.iter().enumerate() {
            if !forest.is_innermost(l) || crowded_step(function, lp, &blocks, &index).is_some() {
                continue;
            }
            let [latch] = lp.latches[..] else {
                continue;
            };
            let inside = |v: Value<'_>| {
                v.parent_block()
                    .and_then(|b| index.get(&b))
                    .is_some_and(|i| lp.blocks.contains(i))
            };
            let values = LoopValues {
                header: blocks[lp.header],
                latch: blocks[latch],
                inside: &inside,
            };
            for &b in &lp.blocks {
                for inst in blocks[b].instructions() {
                    if let Some(narrow) = scaled_index(inst, &values) {
                        roots.push((inst, narrow));
                    }
                }
            }
        }
        for (extension, narrow) in roots {
            let b = TypedBuilder::before(extension);
            let wide = Widen {
                b: &b,
                ty: extension.ty(),
                done: HashMap::new(),
            }
            .value(narrow);
            extension.replace_all_uses_with(wide);
            extension.erase();
            widened += 1;
        }
    }
    widened
}

/// What tells a loop's values apart: its header, its one latch, and
/// whether a value is computed inside it.
struct LoopValues<'a, 'm> {
    header: Block<'m>,
    latch: Block<'m>,
    inside: &'a dyn Fn(Value<'m>) -> bool,
}

impl<'m> LoopValues<'_, 'm> {
    /// Whether `v` is an induction variable of the loop (a header phi that
    /// steps by the same amount every trip) plus or minus values from
    /// outside it: what scalar evolution reads as a recurrence.
    fn is_induction(&self, v: Value<'m>, depth: u32) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        if v.is_phi() {
            return v.parent_block() == Some(self.header)
                && v.incoming_from(self.latch)
                    .is_some_and(|next| steps_invariantly(v, next, self.inside));
        }
        if !(v.is_add() || v.opcode() == Some(Opcode::LLVMSub)) {
            return false;
        }
        let (Some(a), Some(b)) = (v.operand(0), v.operand(1)) else {
            return false;
        };
        (self.is_induction(a, depth + 1) && !(self.inside)(b))
            || (v.is_add() && self.is_induction(b, depth + 1) && !(self.inside)(a))
    }
}

/// For `sext i32 x to i64` that an address takes as its index, where `x`
/// is signed no-wrap arithmetic in which an induction variable of the loop
/// is multiplied by a run-time value from outside it: `x`. (A product of
/// any other value of the loop, `next * b` for `next` a value the loop
/// computes anew, is no recurrence: in 64 bits it would only cost more.)
fn scaled_index<'m>(inst: Value<'m>, lp: &LoopValues<'_, 'm>) -> Option<Value<'m>> {
    if inst.opcode() != Some(Opcode::LLVMSExt) || inst.ty().integer_width() != Some(64) {
        return None;
    }
    let narrow = inst.operand(0)?;
    if narrow.ty().integer_width() != Some(32)
        || !inst
            .users()
            .iter()
            .any(|u| u.opcode() == Some(Opcode::LLVMGetElementPtr))
    {
        return None;
    }
    scales_by_run_time_stride(narrow, lp, 0).then_some(narrow)
}

/// Whether `v` is no-wrap arithmetic that `Widen` rebuilds and that holds a
/// product of an induction variable of the loop by a non-constant value
/// from outside it.
fn scales_by_run_time_stride<'m>(v: Value<'m>, lp: &LoopValues<'_, 'm>, depth: u32) -> bool {
    if depth > MAX_DEPTH || !widens_exactly(v) {
        return false;
    }
    let (Some(a), Some(b)) = (v.operand(0), v.operand(1)) else {
        return false;
    };
    let run_time_stride = |x: Value<'m>, s: Value<'m>| {
        lp.is_induction(x, 0) && !(lp.inside)(s) && s.const_int().is_none()
    };
    (v.opcode() == Some(Opcode::LLVMMul) && (run_time_stride(a, b) || run_time_stride(b, a)))
        || scales_by_run_time_stride(a, lp, depth + 1)
        || scales_by_run_time_stride(b, lp, depth + 1)
}

/// Whether the sign extension of `v` equals the same operation on its
/// operands' sign extensions: `nsw` adds, subtractions, products and
/// shifts by a constant, and `or disjoint` (an add without carries, so
/// without overflow).
fn widens_exactly(v: Value<'_>) -> bool {
    match v.opcode() {
        Some(Opcode::LLVMAdd | Opcode::LLVMSub | Opcode::LLVMMul) => v.has_no_wrap(true),
        Some(Opcode::LLVMShl) => {
            v.has_no_wrap(true) && v.operand(1).and_then(|s| s.const_int()).is_some()
        }
        Some(Opcode::LLVMOr) => v.is_add(),
        _ => false,
    }
}

/// Rebuilds 32-bit arithmetic in 64 bits before one instruction.
struct Widen<'b, 'm> {
    b: &'b TypedBuilder<'m>,
    ty: crate::llvm::ir::Type<'m>,
    done: HashMap<Value<'m>, Value<'m>>,
}

impl<'m> Widen<'_, 'm> {
    fn value(&mut self, v: Value<'m>) -> Value<'m> {
        if let Some(&w) = self.done.get(&v) {
            return w;
        }
        let w = match (widens_exactly(v), v.operand(0), v.operand(1)) {
            (true, Some(a), Some(b)) => {
                let (a, b) = (self.value(a), self.value(b));
                match v.opcode() {
                    Some(Opcode::LLVMSub) => self.b.sub(a, b, c"sl1.wide.index"),
                    Some(Opcode::LLVMMul) => self.b.mul(a, b, c"sl1.wide.index"),
                    Some(Opcode::LLVMShl) => self.b.shl(a, b, c"sl1.wide.index"),
                    _ => self.b.add(a, b, c"sl1.wide.index"),
                }
            }
            _ => self.b.sext_to(v, self.ty, c"sl1.wide"),
        };
        self.done.insert(v, w);
        w
    }
}

//! Device tuning: range checks on narrow integers compare in 32 bits.
//!
//! `c == '\n' || c == '\t'` on a `char` becomes `(c - 9) <u 2` in 8 bits.
//! The GPU has no 8- or 16-bit registers: the subtraction runs in 32 bits
//! and the backend masks its result to 8 bits before the compare, one
//! more instruction per check. When the range the check accepts does not
//! wrap around, the same test on the zero-extended value needs no mask:
//! `zext(c) - 9 <u 2` in 32 bits, where a value below 9 wraps to a large
//! one and fails as it did (H100: `wc` 0.233 -> 0.221 ms, `opinion` 6.34
//! -> 5.99 ms, docs/results/2026-11-26-h100-narrow-tuning.txt).

use inkwell::llvm_sys::prelude::*;
use inkwell::module::Module;
use inkwell::values::AsValueRef;

use crate::llvm::build;
use crate::llvm::edit::{self, Builder};
use crate::llvm::ir::{IntPredicate, Opcode, Value};

/// Widest integer whose range checks are widened, in bits.
const NARROW_BITS: u32 = 16;

/// Widens every eligible range check of `module`; returns how many.
pub fn widen_range_checks(module: &Module<'_>) -> usize {
    let mut widened = 0;
    for function in module.get_functions() {
        for block in edit::blocks(function.as_value_ref()) {
            for inst in edit::instructions(block) {
                if let Some(check) = RangeCheck::of(inst) {
                    check.widen();
                    widened += 1;
                }
            }
        }
    }
    widened
}

/// `(x + add) <u limit` or `(x + add) >u limit` on an integer of `bits`.
struct RangeCheck {
    compare: LLVMValueRef,
    predicate: IntPredicate,
    sum: LLVMValueRef,
    x: LLVMValueRef,
    /// The smallest `x` accepted by `<u` (`-add` modulo 2^bits).
    low: u64,
    limit: u64,
}

impl RangeCheck {
    fn of(inst: LLVMValueRef) -> Option<RangeCheck> {
        let predicate = Value::from_raw(inst)?.icmp_predicate()?;
        if !matches!(
            predicate,
            IntPredicate::LLVMIntULT | IntPredicate::LLVMIntUGT
        ) {
            return None;
        }
        let sum = build::operand(inst, 0);
        let limit = edit::const_unsigned(build::operand(inst, 1))?;
        let bits = build::integer_bits(sum)?;
        if bits > NARROW_BITS
            || !build::is_instruction(sum)
            || build::opcode(sum) != Opcode::LLVMAdd
        {
            return None;
        }
        let add = edit::const_unsigned(build::operand(sum, 1))?;
        let modulus = 1u64 << bits;
        let low = (modulus - add) % modulus;
        // `<u`: x in [low, low + limit); `>u`: x outside [low, low + limit].
        // Either is one interval test in 32 bits while it does not wrap.
        let end = match predicate {
            IntPredicate::LLVMIntULT => low + limit,
            _ => low + limit + 1,
        };
        (end <= modulus).then_some(RangeCheck {
            compare: inst,
            predicate,
            sum,
            x: build::operand(sum, 0),
            low,
            limit,
        })
    }

    fn widen(self) {
        let b = Builder::before(self.compare);
        let i32t = build::i32_type(build::context_of(self.compare));
        let x = b.zext(self.x, i32t, c"sl1.wide");
        let offset = b.sub(
            x,
            build::const_int(i32t, self.low, false),
            c"sl1.wide.offset",
        );
        let limit = build::const_int(i32t, self.limit, false);
        let compare = b.icmp(self.predicate, offset, limit, c"sl1.wide.check");
        edit::replace_uses(self.compare, compare);
        edit::erase(self.compare);
        if !build::has_uses(self.sum) {
            edit::erase(self.sum);
        }
    }
}

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

use inkwell::module::Module;

use crate::llvm::ir::{Function, IntPredicate, Opcode, Value};
use crate::llvm::typed::TypedBuilder;

/// Widest integer whose range checks are widened, in bits.
const NARROW_BITS: u32 = 16;

/// Widens every eligible range check of `module`; returns how many.
pub fn widen_range_checks(module: &Module<'_>) -> usize {
    let mut widened = 0;
    for function in module.get_functions() {
        for block in Function::of(module, function).blocks() {
            for inst in block.instructions() {
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
struct RangeCheck<'m> {
    compare: Value<'m>,
    predicate: IntPredicate,
    sum: Value<'m>,
    x: Value<'m>,
    /// The smallest `x` accepted by `<u` (`-add` modulo 2^bits).
    low: u64,
    limit: u64,
}

impl<'m> RangeCheck<'m> {
    fn of(inst: Value<'m>) -> Option<RangeCheck<'m>> {
        let predicate = inst.icmp_predicate()?;
        if !matches!(
            predicate,
            IntPredicate::LLVMIntULT | IntPredicate::LLVMIntUGT
        ) {
            return None;
        }
        let sum = inst.operand(0)?;
        let limit = inst.operand(1)?.const_unsigned()?;
        let bits = sum.integer_bits()?;
        if bits > NARROW_BITS || sum.opcode() != Some(Opcode::LLVMAdd) {
            return None;
        }
        let add = sum.operand(1)?.const_unsigned()?;
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
            x: sum.operand(0)?,
            low,
            limit,
        })
    }

    fn widen(self) {
        let b = TypedBuilder::before(self.compare);
        let x = b.zext(self.x, 32, c"sl1.wide");
        let offset = b.sub(x, b.const_int(32, self.low), c"sl1.wide.offset");
        let limit = b.const_int(32, self.limit);
        let compare = b.icmp(self.predicate, offset, limit, c"sl1.wide.check");
        self.compare.replace_all_uses_with(compare);
        self.compare.erase();
        if !self.sum.has_uses() {
            self.sum.erase();
        }
    }
}

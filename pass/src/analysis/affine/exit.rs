//! A loop's exit test as a count: when the loop leaves from one block only,
//! on a compare of an induction variable with a value the loop does not
//! change, the number of further iterations that stay in the loop follows
//! from this iteration's values (what line runs need to leave the test out).

use crate::llvm::ir::{
    inverse_predicate, swapped_predicate as swapped, IntPredicate, Opcode, Value,
};

use super::scope::LoopScope;

/// The loop stays while `x pred bound` holds (an unsigned or signed compare,
/// or `!=`), where `x` moves by `step` per iteration, exactly (in its own
/// width, without casts), and `bound` is fixed in the loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CountedExit<'m> {
    /// The conditional branch that leaves the loop.
    pub branch: Value<'m>,
    /// Which operand of the branch's compare is `x` (the other is `bound`).
    pub x_operand: u32,
    /// The loop stays when the compare is true (else when it is false).
    pub stays_on_true: bool,
    pub step: i64,
    /// `x < bound` (or `x > bound` counting down) and `!=` are strict: the
    /// bound itself leaves the loop.
    pub strict: bool,
    /// The test on which the loop stays, `x pred bound` (the compare's
    /// operands swapped and its answer inverted as need be).
    pub predicate: IntPredicate,
}

impl<'m> CountedExit<'m> {
    /// The compare the branch tests.
    pub fn compare(&self) -> Value<'m> {
        self.branch
            .operand(0)
            .expect("a checked conditional branch")
    }

    /// `x`, the induction variable compared.
    pub fn x(&self) -> Value<'m> {
        self.compare()
            .operand(self.x_operand)
            .expect("a checked compare")
    }

    /// `bound`, fixed in the loop.
    pub fn bound(&self) -> Value<'m> {
        self.compare()
            .operand(1 - self.x_operand)
            .expect("a checked compare")
    }

    /// Further iterations that stay in the loop, given this iteration (which
    /// stayed) compared `x0` with `bound` (`iterations_left`).
    pub fn iterations_left(&self, x0: u64, bound: u64, mask: u64) -> u64 {
        iterations_left(self.step, self.strict, x0, bound, mask)
    }
}

/// Further iterations of a counted exit of `step` (`strict`: the bound
/// itself leaves) that stay in the loop, given this iteration (which
/// stayed) compared `x0` with `bound`: `(distance - strict) / |step|`,
/// where the distance runs from `x0` to `bound` in the step's direction.
/// Widths are the caller's; this is the model the tests check.
fn iterations_left(step: i64, strict: bool, x0: u64, bound: u64, mask: u64) -> u64 {
    let distance = if step > 0 {
        bound.wrapping_sub(x0)
    } else {
        x0.wrapping_sub(bound)
    } & mask;
    (distance.wrapping_sub(u64::from(strict)) & mask) / step.unsigned_abs()
}

impl<'m> LoopScope<'_, 'm> {
    /// The loop's exit test as a count, or why it is not one.
    pub fn counted_exit(&self) -> Result<CountedExit<'m>, &'static str> {
        let mut exiting = self.l.blocks.iter().copied().filter(|&b| {
            self.blocks[b]
                .successors()
                .iter()
                .any(|s| !self.index.get(s).is_some_and(|i| self.l.blocks.contains(i)))
        });
        let (Some(block), None) = (exiting.next(), exiting.next()) else {
            return Err("the loop leaves from several places");
        };
        if !self.runs_every_iteration(block) {
            return Err("the exit test runs on some iterations only");
        }
        let instructions = self.blocks[block].instructions();
        let branch = *instructions.last().ok_or("a block without a terminator")?;
        if branch.opcode() != Some(Opcode::LLVMBr) || branch.num_operands() != 3 {
            return Err("the loop leaves through something other than a branch");
        }
        // A conditional branch's operands: condition, false block, true block.
        let stays_on_true = self.inside_block(branch.operand(2).ok_or("malformed branch")?);
        let compare = branch.operand(0).ok_or("malformed branch")?;
        if compare.opcode() != Some(Opcode::LLVMICmp) {
            return Err("the exit test is not a compare");
        }
        let (a, b) = (
            compare.operand(0).ok_or("malformed compare")?,
            compare.operand(1).ok_or("malformed compare")?,
        );
        let mut predicate = compare.icmp_predicate().ok_or("malformed compare")?;
        let (x_operand, step) = match (self.exact_step(a), self.exact_step(b)) {
            (Some(s), None) if !self.inside(b) => (0, s),
            (None, Some(s)) if !self.inside(a) => {
                predicate = swapped(predicate);
                (1, s)
            }
            _ => return Err("the exit test does not compare an induction variable with a bound"),
        };
        if !stays_on_true {
            predicate = inverse_predicate(predicate);
        }
        use IntPredicate::*;
        let strict = match (predicate, step.signum()) {
            (LLVMIntNE, 1 | -1) => true,
            (LLVMIntULT | LLVMIntSLT, 1) | (LLVMIntUGT | LLVMIntSGT, -1) => true,
            (LLVMIntULE | LLVMIntSLE, 1) | (LLVMIntUGE | LLVMIntSGE, -1) => false,
            _ => return Err("the exit test does not count towards its bound"),
        };
        Ok(CountedExit {
            branch,
            x_operand,
            stays_on_true,
            step,
            strict,
            predicate,
        })
    }

    fn inside_block(&self, block_value: Value<'_>) -> bool {
        block_value
            .as_block()
            .and_then(|block| self.index.get(&block))
            .is_some_and(|i| self.l.blocks.contains(i))
    }

    /// The step of `v` when it is a header phi moving by a constant, or
    /// such a phi plus a constant (same width: the step is then exact,
    /// wrapping included), or that sum widened where it cannot wrap: `zext`
    /// of an `add nuw`, `sext` of an `add nsw` (a wrap would be poison).
    fn exact_step(&self, v: Value<'_>) -> Option<i64> {
        let widened = match v.opcode() {
            Some(Opcode::LLVMZExt) => Some(false),
            Some(Opcode::LLVMSExt) => Some(true),
            _ => None,
        };
        if let Some(signed) = widened {
            let sum = v.operand(0)?;
            let flagged = sum.opcode() == Some(Opcode::LLVMAdd) && sum.has_no_wrap(signed);
            return if flagged { self.exact_step(sum) } else { None };
        }
        let header_phi = |p: Value<'_>| -> Option<i64> {
            if !p.is_phi() || self.block_index(p) != Some(self.l.header) {
                return None;
            }
            self.phi(p).ok().map(|f| f.stride).filter(|&s| s != 0)
        };
        if let Some(s) = header_phi(v) {
            return Some(s);
        }
        let phi = v.operand(0)?;
        self.function.recurrence_step(phi, v)?;
        header_phi(phi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counted exit of `step`, strict or not.
    #[derive(Debug, Clone, Copy)]
    struct Exit {
        step: i64,
        strict: bool,
    }

    fn exit(step: i64, strict: bool) -> Exit {
        Exit { step, strict }
    }

    /// Brute force: iterations t >= 1 while `stays(x0 + t * step)`.
    fn brute(x0: u64, step: i64, mask: u64, stays: impl Fn(u64) -> bool) -> u64 {
        let mut t = 0u64;
        loop {
            let x = x0.wrapping_add((step as u64).wrapping_mul(t + 1)) & mask;
            if !stays(x) || t > 1000 {
                return t;
            }
            t += 1;
        }
    }

    /// Checks `k` against the loop: every one of the next `k` iterations
    /// stays, and with unit steps `k` is exact unless the loop never leaves
    /// (`x >= 0` unsigned, where `k` stays a bound).
    fn check(e: Exit, x0: u64, bound: u64, stays: impl Fn(u64) -> bool) {
        let mask = 0xff;
        let k = iterations_left(e.step, e.strict, x0, bound, mask);
        let actual = brute(x0, e.step, mask, stays);
        assert!(k <= actual, "{e:?} x0 {x0} bound {bound}: {k} > {actual}");
        if e.step.abs() == 1 && actual <= 1000 {
            assert_eq!(k, actual, "{e:?} x0 {x0} bound {bound}");
        }
    }

    #[test]
    fn counts_never_pass_the_exit_in_any_direction() {
        let signed = |x: u64| x as u8 as i8;
        for x0 in 0..=255u64 {
            for bound in 0..=255u64 {
                for step in [1i64, 2, 3, 7] {
                    if x0 < bound {
                        check(exit(step, true), x0, bound, |x| x < bound);
                    }
                    if x0 <= bound {
                        check(exit(step, false), x0, bound, |x| x <= bound);
                    }
                    if x0 > bound {
                        check(exit(-step, true), x0, bound, |x| x > bound);
                    }
                    if x0 >= bound {
                        check(exit(-step, false), x0, bound, |x| x >= bound);
                    }
                    if signed(x0) < signed(bound) {
                        check(exit(step, true), x0, bound, |x| signed(x) < signed(bound));
                    }
                    if signed(x0) > signed(bound) {
                        check(exit(-step, true), x0, bound, |x| signed(x) > signed(bound));
                    }
                    if x0 != bound {
                        check(exit(step, true), x0, bound, |x| x != bound);
                        check(exit(-step, true), x0, bound, |x| x != bound);
                    }
                }
            }
        }
    }
}

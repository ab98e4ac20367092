//! How a value changes from one lane of a warp to the next: its derivative
//! by `threadIdx.x`, where the IR gives it as a constant. Lanes next to each
//! other differ by one in `threadIdx.x` (and in `%laneid`); the block and
//! grid registers, arguments and constants are the same for the whole warp.
//! `i = blockIdx.x * blockDim.x + threadIdx.x` steps by one, `in + 16 * i`
//! by 16 elements, `xx + j` for a loop counter `j` by nothing: every lane
//! reads the same element. Used to settle the lane test (`transform::lanes`)
//! at compile time where the distance is known, and to leave the terms
//! every lane shares out of the run-time test's address.
//!
//! The answer guides performance only, never correctness: a loop counter is
//! taken at its value on entry (its step is assumed the same for every
//! lane), and widths are ignored (overflow assumed away).

use std::collections::{HashMap, HashSet};

use crate::llvm::ir::{Block, Function, GepIndex, Opcode, Value, ValueKind};

use super::kernel::KernelAnalysis;

/// How far the analysis follows arithmetic.
const MAX_DEPTH: u32 = 32;

/// A value's step from lane to lane, while it is being worked out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Known(i64),
    Unknown,
    /// A loop counter met again through its own update: the update's other
    /// operands decide.
    Pending,
}

impl Step {
    fn combine(self, other: Step, f: impl Fn(i64, i64) -> Option<i64>) -> Step {
        match (self, other) {
            (Step::Unknown, _) | (_, Step::Unknown) => Step::Unknown,
            (Step::Known(a), Step::Known(b)) => f(a, b).map_or(Step::Unknown, Step::Known),
            _ => Step::Pending,
        }
    }

    fn scale(self, by: i64) -> Step {
        match self {
            Step::Known(a) => a.checked_mul(by).map_or(Step::Unknown, Step::Known),
            s => s,
        }
    }

    fn is_zero(self) -> bool {
        self == Step::Known(0)
    }
}

/// Lane steps of a kernel's values (memoised).
pub struct LaneSteps<'m> {
    function: Function<'m>,
    headers: HashSet<Block<'m>>,
    memo: HashMap<Value<'m>, Step>,
    visiting: HashSet<Value<'m>>,
}

impl<'m> LaneSteps<'m> {
    pub fn new(k: &KernelAnalysis<'m>) -> Self {
        LaneSteps {
            function: k.function,
            headers: k.loops.loops.iter().map(|l| k.blocks[l.header]).collect(),
            memo: HashMap::new(),
            visiting: HashSet::new(),
        }
    }

    /// How much `v` grows from one lane to the next (in its own units:
    /// bytes for pointers), when the IR says so.
    pub fn of(&mut self, v: Value<'m>) -> Option<i64> {
        match self.step(v, MAX_DEPTH) {
            Step::Known(s) => Some(s),
            Step::Unknown | Step::Pending => None,
        }
    }

    fn step(&mut self, v: Value<'m>, depth: u32) -> Step {
        if let Some(&s) = self.memo.get(&v) {
            return s;
        }
        if self.visiting.contains(&v) {
            return Step::Pending;
        }
        if depth == 0 {
            return Step::Unknown;
        }
        self.visiting.insert(v);
        let s = self.compute(v, depth - 1);
        self.visiting.remove(&v);
        // A pending answer depends on the walk that is under way.
        if s != Step::Pending {
            self.memo.insert(v, s);
        }
        s
    }

    fn compute(&mut self, v: Value<'m>, depth: u32) -> Step {
        if v.const_int().is_some() {
            return Step::Known(0);
        }
        let op = match v.kind() {
            ValueKind::Instruction(op) => op,
            ValueKind::Argument { .. }
            | ValueKind::GlobalVariable { .. }
            | ValueKind::ConstantNull
            | ValueKind::Function => return Step::Known(0),
            ValueKind::ConstantExpr(_) | ValueKind::Other => return Step::Unknown,
        };
        let operand = |this: &mut Self, i: u32| match v.operand(i) {
            Some(o) => this.step(o, depth),
            None => Step::Unknown,
        };
        use Opcode::*;
        match op {
            LLVMAdd => operand(self, 0).combine(operand(self, 1), i64::checked_add),
            LLVMSub => match operand(self, 0).combine(operand(self, 1), i64::checked_sub) {
                Step::Unknown if self.counts_from(v.operand(0), v.operand(1), depth) => {
                    Step::Known(0)
                }
                s => s,
            },
            LLVMMul => {
                let (a, b) = (v.operand(0), v.operand(1));
                match (a.and_then(|a| a.const_int()), b.and_then(|b| b.const_int())) {
                    (_, Some(c)) => operand(self, 0).scale(c),
                    (Some(c), _) => operand(self, 1).scale(c),
                    _ => self.uniform(v, depth),
                }
            }
            LLVMShl => match v.operand(1).and_then(|s| s.const_int()) {
                Some(s @ 0..=62) => operand(self, 0).scale(1 << s),
                _ => self.uniform(v, depth),
            },
            // `or` with a constant is how LLVM adds to an aligned value.
            LLVMOr if v.operand(1).and_then(|o| o.const_int()).is_some() => operand(self, 0),
            LLVMZExt | LLVMSExt | LLVMTrunc | LLVMBitCast | LLVMAddrSpaceCast | LLVMPtrToInt
            | LLVMIntToPtr => operand(self, 0),
            LLVMGetElementPtr => self.gep(v, depth),
            LLVMCall => match v.called_function_name() {
                Some(name) => match name.strip_prefix("llvm.nvvm.read.ptx.sreg.") {
                    Some("tid.x" | "laneid") => Step::Known(1),
                    // The other thread coordinates move by whole rows of
                    // the block; within a row, lanes differ in x alone.
                    Some(_) => Step::Known(0),
                    None => Step::Unknown,
                },
                None => Step::Unknown,
            },
            // Every lane loading one address loads one value.
            LLVMLoad => {
                if operand(self, 0).is_zero() {
                    Step::Known(0)
                } else {
                    Step::Unknown
                }
            }
            LLVMPHI => self.phi(v, depth),
            LLVMSelect => {
                let (c, a, b) = (operand(self, 0), operand(self, 1), operand(self, 2));
                match (c, a, b) {
                    (Step::Known(0), Step::Known(a), Step::Known(b)) if a == b => Step::Known(a),
                    _ => Step::Unknown,
                }
            }
            LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMAnd | LLVMOr | LLVMXor | LLVMLShr
            | LLVMAShr | LLVMICmp | LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFCmp
            | LLVMFPToSI | LLVMFPToUI | LLVMSIToFP | LLVMUIToFP => self.uniform(v, depth),
            _ => Step::Unknown,
        }
    }

    /// Zero when every operand is the same for the whole warp.
    fn uniform(&mut self, v: Value<'m>, depth: u32) -> Step {
        let mut any_pending = false;
        for i in 0..v.num_operands() {
            match v.operand(i).map_or(Step::Unknown, |o| self.step(o, depth)) {
                Step::Known(0) => {}
                Step::Pending => any_pending = true,
                _ => return Step::Unknown,
            }
        }
        if any_pending {
            Step::Pending
        } else {
            Step::Known(0)
        }
    }

    fn gep(&mut self, v: Value<'m>, depth: u32) -> Step {
        let Some(indices) = self.function.gep_indices(v) else {
            return self.uniform(v, depth);
        };
        let mut sum = match v.operand(0) {
            Some(base) => self.step(base, depth),
            None => return Step::Unknown,
        };
        for (i, index) in indices.into_iter().enumerate() {
            let term = match index {
                GepIndex::Field(_) => Step::Known(0),
                GepIndex::Scaled(size) => match v.operand(i as u32 + 1) {
                    Some(o) => self.step(o, depth).scale(size as i64),
                    None => Step::Unknown,
                },
            };
            sum = sum.combine(term, i64::checked_add);
        }
        sum
    }

    /// Whether `counter - start` counts the loop's iterations: `counter` a
    /// loop header's phi entered with `start` and advanced by an amount the
    /// same in every lane (`x[i - begin]` in a loop from each thread's
    /// `begin`: every lane reads one element, whatever `begin`'s step).
    fn counts_from(
        &mut self,
        counter: Option<Value<'m>>,
        start: Option<Value<'m>>,
        depth: u32,
    ) -> bool {
        let (Some(counter), Some(start)) = (counter, start) else {
            return false;
        };
        let header = counter
            .parent_block()
            .is_some_and(|b| self.headers.contains(&b));
        if !header || counter.kind() != ValueKind::Instruction(Opcode::LLVMPHI) {
            return false;
        }
        let incoming = counter.incoming();
        incoming.contains(&start)
            && incoming.iter().filter(|i| **i != start).all(|update| {
                let is_add = update.kind() == ValueKind::Instruction(Opcode::LLVMAdd);
                let step = match (update.operand(0), update.operand(1)) {
                    (Some(a), Some(b)) if a == counter => Some(b),
                    (Some(a), Some(b)) if b == counter => Some(a),
                    _ => None,
                };
                is_add && step.is_some_and(|c| self.step(c, depth) == Step::Known(0))
            })
    }

    /// A loop header's phi steps as its value on entry does (its update's
    /// own step met as pending); any other phi merges branches that lanes
    /// may take differently, known only when it has one incoming value.
    fn phi(&mut self, v: Value<'m>, depth: u32) -> Step {
        let incoming = v.incoming();
        let header = v.parent_block().is_some_and(|b| self.headers.contains(&b));
        let first = incoming.first().copied();
        if !header && !incoming.iter().all(|i| Some(*i) == first) {
            return Step::Unknown;
        }
        let mut known = None;
        for value in incoming {
            match self.step(value, depth) {
                Step::Unknown => return Step::Unknown,
                Step::Pending => {}
                Step::Known(s) => {
                    if known.is_some_and(|k| k != s) {
                        return Step::Unknown;
                    }
                    known = Some(s);
                }
            }
        }
        known.map_or(Step::Pending, Step::Known)
    }
}

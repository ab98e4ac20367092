//! Addresses as affine functions of a loop's iteration (the static access
//! analysis the S-L1 paper proposes in its section 6). An address inside a
//! loop is written `sum(coefficient * symbol) + constant`, where symbols are
//! values the loop does not change (arguments, values computed before the
//! loop) and the loop's induction variables, which move by a constant step
//! per iteration. Two addresses with the same symbols are a constant apart,
//! and the address moves by `stride` bytes per iteration.

use std::collections::{BTreeMap, BTreeSet};

use crate::llvm::ir::{Block, Function, GepIndex, Opcode, Value};

use super::loops::Loop;

/// Why an address loaded in the loop has no affine form (an indirect
/// access: `in[idx[i]]`).
pub const INDIRECT: &str = "loaded from memory (an indirect access)";

mod exit;
mod scope;
pub use exit::CountedExit;
pub use scope::LoopScope;

/// How far the analysis follows address arithmetic.
const MAX_DEPTH: u32 = 24;

/// `sum(terms) + constant`, moving by `stride` per iteration of the loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineAddress {
    /// Symbol (by its LLVM value) to coefficient; zero coefficients removed.
    pub terms: BTreeMap<usize, i64>,
    pub constant: i64,
    pub stride: i64,
}

impl AffineAddress {
    fn constant(c: i64) -> Self {
        AffineAddress {
            terms: BTreeMap::new(),
            constant: c,
            stride: 0,
        }
    }

    /// The symbol `v`, keyed by the address of its LLVM value.
    fn symbol(v: Value<'_>, stride: i64) -> Self {
        AffineAddress {
            terms: BTreeMap::from([(v.symbol(), 1)]),
            constant: 0,
            stride,
        }
    }

    fn add(mut self, other: &AffineAddress, sign: i64) -> Option<Self> {
        for (&s, &c) in &other.terms {
            let e = self.terms.entry(s).or_insert(0);
            *e = e.checked_add(c.checked_mul(sign)?)?;
            if *e == 0 {
                self.terms.remove(&s);
            }
        }
        self.constant = self
            .constant
            .checked_add(other.constant.checked_mul(sign)?)?;
        self.stride = self.stride.checked_add(other.stride.checked_mul(sign)?)?;
        Some(self)
    }

    fn scale(mut self, by: i64) -> Option<Self> {
        if by == 0 {
            return Some(AffineAddress::constant(0));
        }
        for c in self.terms.values_mut() {
            *c = c.checked_mul(by)?;
        }
        self.constant = self.constant.checked_mul(by)?;
        self.stride = self.stride.checked_mul(by)?;
        Some(self)
    }

    fn is_constant(&self) -> bool {
        self.terms.is_empty() && self.stride == 0
    }

    /// `other - self` when both have the same symbols.
    pub fn distance_to(&self, other: &AffineAddress) -> Option<i64> {
        (self.terms == other.terms).then(|| other.constant.checked_sub(self.constant))?
    }
}

type Affine = Result<AffineAddress, &'static str>;

impl<'a, 'm> LoopScope<'a, 'm> {
    pub fn new(function: Function<'m>, blocks: &'a [Block<'m>], l: &'a Loop) -> Self {
        let index = crate::llvm::ir::block_indices(blocks);
        LoopScope {
            function,
            blocks,
            index,
            l,
        }
    }

    fn block_index(&self, v: Value<'m>) -> Option<usize> {
        v.parent_block().and_then(|b| self.index.get(&b).copied())
    }

    fn inside(&self, v: Value<'m>) -> bool {
        self.block_index(v)
            .is_some_and(|b| self.l.blocks.contains(&b))
    }

    /// Whether `block` runs on every iteration: every path from the header
    /// to a latch goes through it.
    pub fn runs_every_iteration(&self, block: usize) -> bool {
        if block == self.l.header {
            return true;
        }
        let mut seen = BTreeSet::from([self.l.header]);
        let mut stack = vec![self.l.header];
        while let Some(b) = stack.pop() {
            if self.l.latches.contains(&b) {
                return false;
            }
            for s in self.blocks[b].successors() {
                let Some(&s) = self.index.get(&s) else {
                    continue;
                };
                if s != block && self.l.blocks.contains(&s) && seen.insert(s) {
                    stack.push(s);
                }
            }
        }
        true
    }

    /// The affine form of `v` in this loop, or why it has none.
    pub fn affine(&self, v: Value<'m>) -> Affine {
        self.walk(v, MAX_DEPTH)
    }

    fn walk(&self, v: Value<'m>, depth: u32) -> Affine {
        if let Some(c) = v.const_int() {
            return Ok(AffineAddress::constant(c));
        }
        let Some(op) = v.opcode() else {
            // Arguments, globals, constant expressions: fixed in the loop.
            return Ok(AffineAddress::symbol(v, 0));
        };
        // Address arithmetic before the loop is followed too (a row's start
        // `d + i * ld` computed once, beside `d + (i * ld + j - 1)` in the
        // loop: one symbol each would leave them an unknown distance apart);
        // anything else fixed in the loop is a symbol.
        if !self.inside(v) && !is_address_arithmetic(op) {
            return Ok(AffineAddress::symbol(v, 0));
        }
        let depth = depth.checked_sub(1).ok_or("address arithmetic too deep")?;
        let operand = |i: u32| -> Affine {
            let o = v.operand(i).ok_or("malformed instruction")?;
            self.walk(o, depth)
        };
        let overflow = "address arithmetic overflows";
        use Opcode::*;
        match op {
            LLVMPHI => self.phi(v),
            LLVMAdd => operand(0)?.add(&operand(1)?, 1).ok_or(overflow),
            LLVMSub => operand(0)?.add(&operand(1)?, -1).ok_or(overflow),
            // `or` with a constant is how LLVM adds to an aligned value.
            LLVMOr => {
                let (a, b) = (operand(0)?, operand(1)?);
                if b.is_constant() || a.is_constant() {
                    a.add(&b, 1).ok_or(overflow)
                } else {
                    self.opaque(v, &[a, b])
                }
            }
            LLVMMul => {
                let (a, b) = (operand(0)?, operand(1)?);
                if b.is_constant() {
                    a.scale(b.constant).ok_or(overflow)
                } else if a.is_constant() {
                    b.scale(a.constant).ok_or(overflow)
                } else {
                    self.opaque(v, &[a, b])
                }
            }
            LLVMShl => {
                let (a, b) = (operand(0)?, operand(1)?);
                match b.is_constant().then_some(b.constant) {
                    Some(s @ 0..=62) => a.scale(1 << s).ok_or(overflow),
                    _ => self.opaque(v, &[a, b]),
                }
            }
            // Widths change, positions do not (overflow is assumed away, as
            // for a prediction it may be).
            LLVMZExt | LLVMSExt | LLVMTrunc | LLVMBitCast | LLVMAddrSpaceCast | LLVMPtrToInt
            | LLVMIntToPtr => operand(0),
            LLVMGetElementPtr => self.gep(v, depth),
            LLVMLoad => Err(INDIRECT),
            LLVMSelect => Err("chosen by a select"),
            LLVMCall => Err("returned by a call"),
            LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMAnd | LLVMXor | LLVMLShr | LLVMAShr => {
                let ops = [operand(0)?, operand(1)?];
                self.opaque(v, &ops)
            }
            _ => Err("computed in a way the analysis does not follow"),
        }
    }

    /// An operation the affine form cannot express: fine while it does not
    /// move in the loop (a new symbol), unknown otherwise.
    fn opaque(&self, v: Value<'m>, operands: &[AffineAddress]) -> Affine {
        if operands.iter().all(|o| o.stride == 0) {
            Ok(AffineAddress::symbol(v, 0))
        } else {
            Err("moves in the loop through a non-linear operation")
        }
    }

    fn gep(&self, v: Value<'m>, depth: u32) -> Affine {
        let indices = self
            .function
            .gep_indices(v)
            .ok_or("indexes a structure by a variable")?;
        let base = v.operand(0).ok_or("malformed instruction")?;
        let mut sum = self.walk(base, depth)?;
        for (i, index) in indices.into_iter().enumerate() {
            let term = match index {
                GepIndex::Field(offset) => AffineAddress::constant(offset as i64),
                GepIndex::Scaled(size) => {
                    let o = v.operand(i as u32 + 1).ok_or("malformed instruction")?;
                    self.walk(o, depth)?
                        .scale(size as i64)
                        .ok_or("address arithmetic overflows")?
                }
            };
            sum = sum.add(&term, 1).ok_or("address arithmetic overflows")?;
        }
        Ok(sum)
    }

    /// A phi of the header moving by a constant step per iteration is an
    /// induction variable; any other phi in the loop merges branches.
    fn phi(&self, v: Value<'m>) -> Affine {
        if self.block_index(v) != Some(self.l.header) {
            return Err("merged from branches of the loop (a phi)");
        }
        if let Some(lagged) = self.lagged(v) {
            return Ok(lagged);
        }
        let mut step = None;
        for (value, from) in v.incoming().into_iter().zip(v.incoming_blocks()) {
            if !self.is_back_edge(from) {
                continue;
            }
            let s = self
                .function
                .recurrence_step(v, value)
                .ok_or("an induction variable without a constant step")?;
            if step.is_some_and(|o| o != s) {
                return Err("an induction variable with several steps");
            }
            step = Some(s);
        }
        Ok(AffineAddress::symbol(v, step.unwrap_or(0)))
    }

    /// Whether a header phi's incoming block `from` is in the loop.
    fn is_back_edge(&self, from: Block<'m>) -> bool {
        self.index
            .get(&from)
            .is_some_and(|f| self.l.blocks.contains(f))
    }

    /// A header phi's value from the back edges and its value from before
    /// the loop, where each is one value.
    fn next_and_start(&self, phi: Value<'m>) -> Option<(Value<'m>, Value<'m>)> {
        let (mut next, mut start) = (None, None);
        for (value, from) in phi.incoming().into_iter().zip(phi.incoming_blocks()) {
            let slot = if self.is_back_edge(from) {
                &mut next
            } else {
                &mut start
            };
            if slot.is_some_and(|s: Value<'m>| s != value) {
                return None;
            }
            *slot = Some(value);
        }
        Some((next?, start?))
    }

    /// A header phi that takes the value another header phi `q` had one
    /// iteration before (`j` beside `j + 1` in `for (j = 1; j + 1 < n; ++j)`,
    /// as LLVM rewrites it) is `q - step` in every iteration when it starts
    /// one step below `q`: the same symbol as `q`, so that addresses through
    /// either are a constant apart.
    fn lagged(&self, p: Value<'m>) -> Option<AffineAddress> {
        let (q, p_start) = self.next_and_start(p)?;
        if q == p || !q.is_phi() || self.block_index(q) != Some(self.l.header) {
            return None;
        }
        let (q_next, q_start) = self.next_and_start(q)?;
        let step = self.function.recurrence_step(q, q_next)?;
        (q_start.const_int()?.checked_sub(p_start.const_int()?)? == step)
            .then(|| AffineAddress::symbol(q, step).add(&AffineAddress::constant(-step), 1))
            .flatten()
    }
}

/// Operations an address is computed with, which the affine form follows
/// wherever they are.
fn is_address_arithmetic(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        LLVMAdd
            | LLVMSub
            | LLVMOr
            | LLVMMul
            | LLVMShl
            | LLVMZExt
            | LLVMSExt
            | LLVMTrunc
            | LLVMBitCast
            | LLVMAddrSpaceCast
            | LLVMPtrToInt
            | LLVMIntToPtr
            | LLVMGetElementPtr
    )
}

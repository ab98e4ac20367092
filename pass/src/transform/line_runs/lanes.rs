//! A full run's word of bytes computed as one vector. The iterations whose
//! stores fill one word of a line are copies of the same loop body, each
//! on its own element of the words it reads: when every lane's stored value
//! is the same expression of its lane of one read word (and of values the
//! same in every lane), that expression is built once on byte vectors.
//! The device tuning then does it on the 32-bit words that hold the bytes
//! (`tuning::byte_words`), a few instructions for four lanes where the
//! lanes one by one take some twenty. Left to LLVM's SLP vectorizer, whose
//! cost model prices byte-vector operations as the backend's lane-by-lane
//! code, a run of `upper` got two-lane vectors and scalar lanes.
//!
//! The operations are those `tuning::byte_words` lowers: integer add, sub,
//! and, or, xor, shifts by a constant, compares with a constant, selects
//! and zero extension of compare answers, on `i8` (answers `i1`) lanes.

use std::collections::HashMap;

use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode;

use crate::llvm::build;
use crate::llvm::edit::{self, Builder};
use crate::llvm::ir::Value;

/// Deepest expression a word's lanes are matched through.
const MAX_DEPTH: u32 = 12;

/// `values` (one per lane, `i8`, their count a multiple of 4) as one vector
/// built before `before` from vector operations, when every lane computes
/// the same expression; `None` when they do not.
pub(super) fn as_vector(before: LLVMValueRef, values: &[LLVMValueRef]) -> Option<LLVMValueRef> {
    if values.len() < 4 || values.len() % 4 != 0 || build::integer_bits(values[0]) != Some(8) {
        return None;
    }
    let mut lanes = Lanes {
        b: Builder::before(before),
        built: HashMap::new(),
    };
    lanes.vector(values, 0)
}

struct Lanes {
    b: Builder,
    /// Lanes tried so far: their vector, or `None` where they differ (an
    /// expression shared by two operands is built, or given up, once).
    built: HashMap<Vec<LLVMValueRef>, Option<LLVMValueRef>>,
}

impl Lanes {
    fn vector(&mut self, values: &[LLVMValueRef], depth: u32) -> Option<LLVMValueRef> {
        if let Some(&v) = self.built.get(values) {
            return v;
        }
        let first = values[0];
        let bits = build::integer_bits(first)?;
        if bits != 8 && bits != 1 || depth > MAX_DEPTH {
            return None;
        }
        let v = if values.iter().all(|&v| v == first) {
            Some(self.splat(first, values.len()))
        } else if let Some(word) = lanes_of_one_word(values) {
            Some(word)
        } else {
            self.operation(values, depth)
        };
        self.built.insert(values.to_vec(), v);
        v
    }

    /// `v`, the same in every lane (a constant, or a value from outside
    /// the copies), in each of `n` lanes.
    fn splat(&self, v: LLVMValueRef, n: usize) -> LLVMValueRef {
        if edit::is_constant(v) {
            let mut lanes = vec![v; n];
            return build::const_vector(&mut lanes);
        }
        let ty = build::vector_type(build::type_of(v), n as u32);
        (0..n as u32).fold(build::poison(ty), |acc, i| self.b.insert_element(acc, v, i))
    }

    /// The lanes' common operation on the vectors of their operands.
    fn operation(&mut self, values: &[LLVMValueRef], depth: u32) -> Option<LLVMValueRef> {
        let first = values[0];
        if !build::is_instruction(first) {
            return None;
        }
        let opcode = build::opcode(first);
        let predicate = Value::from_raw(first).and_then(|v| v.icmp_predicate());
        let same_kind = values.iter().all(|&v| {
            build::is_instruction(v)
                && build::opcode(v) == opcode
                && build::type_of(v) == build::type_of(first)
                && Value::from_raw(v).and_then(|v| v.icmp_predicate()) == predicate
        });
        if !same_kind {
            return None;
        }
        let operands = |i: u32| -> Vec<LLVMValueRef> {
            values.iter().map(|&v| build::operand(v, i)).collect()
        };
        let bits = |v: LLVMValueRef| build::integer_bits(v);
        let operand = |this: &mut Self, i: u32| this.vector(&operands(i), depth + 1);
        let n = values.len() as u32;
        let result = match opcode {
            LLVMOpcode::LLVMAdd
            | LLVMOpcode::LLVMSub
            | LLVMOpcode::LLVMAnd
            | LLVMOpcode::LLVMOr
            | LLVMOpcode::LLVMXor => {
                let (a, b) = (operand(self, 0)?, operand(self, 1)?);
                match opcode {
                    LLVMOpcode::LLVMAdd => self.b.add(a, b, c"sl1.lanes"),
                    LLVMOpcode::LLVMSub => self.b.sub(a, b, c"sl1.lanes"),
                    LLVMOpcode::LLVMAnd => self.b.and(a, b, c"sl1.lanes"),
                    LLVMOpcode::LLVMOr => self.b.or(a, b, c"sl1.lanes"),
                    _ => self.b.xor(a, b, c"sl1.lanes"),
                }
            }
            LLVMOpcode::LLVMShl | LLVMOpcode::LLVMLShr => {
                let by = operands(1);
                let constant = edit::const_unsigned(by[0]).filter(|&c| c < 8)?;
                if by
                    .iter()
                    .any(|&c| edit::const_unsigned(c) != Some(constant))
                {
                    return None;
                }
                let (a, by) = (operand(self, 0)?, operand(self, 1)?);
                if opcode == LLVMOpcode::LLVMShl {
                    self.b.shl(a, by, c"sl1.lanes")
                } else {
                    self.b.lshr(a, by, c"sl1.lanes")
                }
            }
            LLVMOpcode::LLVMICmp => {
                let limits = operands(1);
                if bits(limits[0]) != Some(8)
                    || limits.iter().any(|&c| c != limits[0])
                    || !edit::is_constant(limits[0])
                {
                    return None;
                }
                let (a, limit) = (operand(self, 0)?, operand(self, 1)?);
                self.b.icmp(predicate?, a, limit, c"sl1.lanes")
            }
            LLVMOpcode::LLVMSelect => {
                if bits(build::operand(first, 0)) != Some(1) || bits(first) != Some(8) {
                    return None;
                }
                let (c, a, b) = (operand(self, 0)?, operand(self, 1)?, operand(self, 2)?);
                self.b.select(c, a, b, c"sl1.lanes")
            }
            LLVMOpcode::LLVMZExt => {
                if bits(build::operand(first, 0)) != Some(1) || bits(first) != Some(8) {
                    return None;
                }
                let a = operand(self, 0)?;
                let ty = build::vector_type(build::type_of(first), n);
                self.b.zext(a, ty, c"sl1.lanes")
            }
            _ => return None,
        };
        Some(result)
    }
}

/// The vector whose lanes `values` are, in order: each lane `i` is
/// `extractelement word, i` of one word with as many lanes.
fn lanes_of_one_word(values: &[LLVMValueRef]) -> Option<LLVMValueRef> {
    let word_of = |v: LLVMValueRef, i: usize| -> Option<LLVMValueRef> {
        let extract = build::is_instruction(v)
            && build::opcode(v) == LLVMOpcode::LLVMExtractElement
            && edit::const_unsigned(build::operand(v, 1)) == Some(i as u64);
        extract.then(|| build::operand(v, 0))
    };
    let word = word_of(values[0], 0)?;
    let (_, lanes) = build::vector_shape(build::type_of(word))?;
    (lanes as usize == values.len()
        && values
            .iter()
            .enumerate()
            .all(|(i, &v)| word_of(v, i) == Some(word)))
    .then_some(word)
}

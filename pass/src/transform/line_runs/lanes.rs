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

use crate::llvm::ir::{Opcode, Value};
use crate::llvm::typed::{const_vector, TypedBuilder};

/// Deepest expression a word's lanes are matched through.
const MAX_DEPTH: u32 = 12;

/// `values` (one per lane, `i8`, their count a multiple of 4) as one vector
/// built before `before` from vector operations, when every lane computes
/// the same expression; `None` when they do not.
pub(super) fn as_vector<'m>(before: Value<'m>, values: &[Value<'m>]) -> Option<Value<'m>> {
    if values.len() < 4 || values.len() % 4 != 0 || values[0].integer_bits() != Some(8) {
        return None;
    }
    let mut lanes = Lanes {
        b: TypedBuilder::before(before),
        built: HashMap::new(),
    };
    lanes.vector(values, 0)
}

struct Lanes<'m> {
    b: TypedBuilder<'m>,
    /// Lanes tried so far: their vector, or `None` where they differ (an
    /// expression shared by two operands is built, or given up, once).
    built: HashMap<Vec<Value<'m>>, Option<Value<'m>>>,
}

/// Operand `i` of `v`, an instruction of an opcode that has it.
fn operand<'m>(v: Value<'m>, i: u32) -> Value<'m> {
    v.operand(i).expect("the operand its opcode has")
}

impl<'m> Lanes<'m> {
    fn vector(&mut self, values: &[Value<'m>], depth: u32) -> Option<Value<'m>> {
        if let Some(&v) = self.built.get(values) {
            return v;
        }
        let first = values[0];
        let bits = first.integer_bits()?;
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
    fn splat(&self, v: Value<'m>, n: usize) -> Value<'m> {
        if v.is_constant() {
            return const_vector(&vec![v; n]);
        }
        let ty = v.ty().vector(n as u32);
        (0..n as u32).fold(ty.poison(), |acc, i| self.b.insert_element(acc, v, i))
    }

    /// The lanes' common operation on the vectors of their operands.
    fn operation(&mut self, values: &[Value<'m>], depth: u32) -> Option<Value<'m>> {
        let first = values[0];
        let opcode = first.opcode()?;
        let predicate = first.icmp_predicate();
        let same_kind = values.iter().all(|&v| {
            v.opcode() == Some(opcode) && v.ty() == first.ty() && v.icmp_predicate() == predicate
        });
        if !same_kind {
            return None;
        }
        let operands =
            |i: u32| -> Vec<Value<'m>> { values.iter().map(|&v| operand(v, i)).collect() };
        let operand_vector = |this: &mut Self, i: u32| this.vector(&operands(i), depth + 1);
        let n = values.len() as u32;
        let result = match opcode {
            Opcode::LLVMAdd
            | Opcode::LLVMSub
            | Opcode::LLVMAnd
            | Opcode::LLVMOr
            | Opcode::LLVMXor => {
                let (a, b) = (operand_vector(self, 0)?, operand_vector(self, 1)?);
                match opcode {
                    Opcode::LLVMAdd => self.b.add(a, b, c"sl1.lanes"),
                    Opcode::LLVMSub => self.b.sub(a, b, c"sl1.lanes"),
                    Opcode::LLVMAnd => self.b.and(a, b, c"sl1.lanes"),
                    Opcode::LLVMOr => self.b.or(a, b, c"sl1.lanes"),
                    _ => self.b.xor(a, b, c"sl1.lanes"),
                }
            }
            Opcode::LLVMShl | Opcode::LLVMLShr => {
                let by = operands(1);
                let constant = by[0].const_unsigned().filter(|&c| c < 8)?;
                if by.iter().any(|c| c.const_unsigned() != Some(constant)) {
                    return None;
                }
                let (a, by) = (operand_vector(self, 0)?, operand_vector(self, 1)?);
                if opcode == Opcode::LLVMShl {
                    self.b.shl(a, by, c"sl1.lanes")
                } else {
                    self.b.lshr(a, by, c"sl1.lanes")
                }
            }
            Opcode::LLVMICmp => {
                let limits = operands(1);
                if limits[0].integer_bits() != Some(8)
                    || limits.iter().any(|&c| c != limits[0])
                    || !limits[0].is_constant()
                {
                    return None;
                }
                let (a, limit) = (operand_vector(self, 0)?, operand_vector(self, 1)?);
                self.b.icmp(predicate?, a, limit, c"sl1.lanes")
            }
            Opcode::LLVMSelect => {
                if operand(first, 0).integer_bits() != Some(1) || first.integer_bits() != Some(8) {
                    return None;
                }
                let (c, a, b) = (
                    operand_vector(self, 0)?,
                    operand_vector(self, 1)?,
                    operand_vector(self, 2)?,
                );
                self.b.select(c, a, b, c"sl1.lanes")
            }
            Opcode::LLVMZExt => {
                if operand(first, 0).integer_bits() != Some(1) || first.integer_bits() != Some(8) {
                    return None;
                }
                let a = operand_vector(self, 0)?;
                self.b.zext_to(a, first.ty().vector(n), c"sl1.lanes")
            }
            _ => return None,
        };
        Some(result)
    }
}

/// The vector whose lanes `values` are, in order: each lane `i` is
/// `extractelement word, i` of one word with as many lanes.
fn lanes_of_one_word<'m>(values: &[Value<'m>]) -> Option<Value<'m>> {
    let word_of = |v: Value<'m>, i: usize| -> Option<Value<'m>> {
        let extract = v.opcode() == Some(Opcode::LLVMExtractElement)
            && operand(v, 1).const_unsigned() == Some(i as u64);
        extract.then(|| operand(v, 0))
    };
    let word = word_of(values[0], 0)?;
    let (_, lanes) = word.ty().vector_shape()?;
    (lanes as usize == values.len()
        && values
            .iter()
            .enumerate()
            .all(|(i, &v)| word_of(v, i) == Some(word)))
    .then_some(word)
}

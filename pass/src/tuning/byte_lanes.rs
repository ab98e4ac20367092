//! Lanes of bytes computed as one vector. The copies of a loop body that a
//! full line run unrolls (`transform::line_runs`) each work on their own
//! element of the words they read: when four such copies compute the same
//! expression of their lane of one word (and of values the same in every
//! lane), that expression is built once on byte vectors, which
//! `byte_words` then does on the 32-bit word holding the bytes: a few
//! instructions for four lanes where the lanes one by one take some twenty.
//! Left to LLVM's SLP vectorizer, whose cost model prices byte-vector
//! operations as the backend's lane-by-lane code, a run of `upper` got
//! two-lane vectors and scalar lanes.
//!
//! Lane `i` may also take what lane `i - 1` computed (a value carried from
//! one iteration to the next, as `wc`'s "the byte before was a space"):
//! those lanes are the vector of the same expression moved up one lane,
//! the carried value in lane 0.
//!
//! The operations are those `byte_words` lowers: integer add, sub, and,
//! or, xor, shifts and multiplies by a constant, compares with a constant,
//! selects and zero extension of compare answers, on `i8` (answers `i1`)
//! lanes.

use std::collections::HashMap;

use crate::llvm::ir::{Opcode, Value};
use crate::llvm::typed::{const_vector, TypedBuilder};

/// Deepest expression a word's lanes are matched through.
const MAX_DEPTH: u32 = 12;

/// `values` (one per lane, all `i8` or all `i1`, their count a multiple of
/// 4) as one vector built before `before` from vector operations, when
/// every lane computes the same expression; `None` when they do not.
pub fn as_vector<'m>(before: Value<'m>, values: &[Value<'m>]) -> Option<Value<'m>> {
    LaneVectors::before(before).vector_of(values)
}

/// Vectors of lanes built at one place, remembered between calls: lanes
/// carried from a lane of one of them take it from there.
pub struct LaneVectors<'m> {
    b: TypedBuilder<'m>,
    /// How many lanes the vectors of the current call have.
    width: u32,
    /// Lanes tried so far (with their width): their vector, or `None`
    /// where they differ (an expression shared by two operands is built,
    /// or given up, once). Fewer lanes than the width are the first lanes
    /// of their vector.
    built: HashMap<(u32, Vec<Value<'m>>), Option<Value<'m>>>,
    /// Each lane of a vector built: the vector and the lane.
    lane_of: HashMap<Value<'m>, (Value<'m>, u32)>,
}

impl<'m> LaneVectors<'m> {
    /// Vectors to be built before `before`.
    pub fn before(before: Value<'m>) -> Self {
        LaneVectors {
            b: TypedBuilder::before(before),
            width: 0,
            built: HashMap::new(),
            lane_of: HashMap::new(),
        }
    }

    /// Builds the next vectors before `before`, which the places of the
    /// vectors built so far precede (or are).
    pub fn build_before(&mut self, before: Value<'m>) {
        self.b = TypedBuilder::before(before);
    }

    /// `values` as one vector (as `as_vector`), reusing the vectors built
    /// so far.
    pub fn vector_of(&mut self, values: &[Value<'m>]) -> Option<Value<'m>> {
        let bits = values.first()?.integer_bits();
        if values.len() < 4 || values.len() % 4 != 0 || !matches!(bits, Some(8) | Some(1)) {
            return None;
        }
        self.width = values.len() as u32;
        self.vector(values, 0)
    }
}

/// Operand `i` of `v`, an instruction of an opcode that has it.
fn operand<'m>(v: Value<'m>, i: u32) -> Value<'m> {
    v.operand(i).expect("the operand its opcode has")
}

impl<'m> LaneVectors<'m> {
    /// The vector whose first lanes are `values`.
    fn vector(&mut self, values: &[Value<'m>], depth: u32) -> Option<Value<'m>> {
        let key = (self.width, values.to_vec());
        if let Some(&v) = self.built.get(&key) {
            return v;
        }
        let first = values[0];
        let bits = first.integer_bits()?;
        if bits != 8 && bits != 1 || depth > MAX_DEPTH {
            return None;
        }
        let v = if values.iter().all(|&v| v == first) {
            Some(self.splat(first))
        } else if let Some(word) = lanes_of_one_word(values, self.width) {
            Some(word)
        } else {
            // Carried first: the lanes then move where the expression ends
            // (one shift of its answers) rather than where it starts (the
            // whole expression again on the moved bytes).
            self.carried(values, depth)
                .or_else(|| self.operation(values, depth))
        };
        self.built.insert(key, v);
        if let Some(vector) = v {
            for (i, &lane) in values.iter().enumerate() {
                if !lane.is_constant() {
                    self.lane_of.entry(lane).or_insert((vector, i as u32));
                }
            }
        }
        v
    }

    /// `v`, the same in every lane (a constant, or a value from outside
    /// the copies).
    fn splat(&self, v: Value<'m>) -> Value<'m> {
        let n = self.width;
        if v.is_constant() {
            return const_vector(&vec![v; n as usize]);
        }
        let ty = v.ty().vector(n);
        (0..n).fold(ty.poison(), |acc, i| self.b.insert_element(acc, v, i))
    }

    /// Lanes that take what the lane before them computed: `values[0]` a
    /// value carried in, each later lane the previous lane's of one vector
    /// (`wc`'s `prev_space`). That vector moved up one lane, `values[0]`
    /// in lane 0; words of four lanes only (`byte_words` lowers the move:
    /// a shift of the word and the lane carried in).
    fn carried(&mut self, values: &[Value<'m>], depth: u32) -> Option<Value<'m>> {
        if self.width != 4 || values.len() != 4 {
            return None;
        }
        let moved = self.vector(&values[1..], depth + 1)?;
        // The value carried in is a lane of a vector built before (the
        // word before's last lane, in a run of words), or comes alone.
        let (from, lane) = match self.lane_of.get(&values[0]) {
            Some(&(vector, lane)) if vector.ty() == moved.ty() => (vector, lane),
            _ => {
                let ty = values[0].ty().vector(4);
                (self.b.insert_element(ty.poison(), values[0], 0), 0)
            }
        };
        Some(
            self.b
                .shuffle_vector(from, moved, &[lane, 4, 5, 6], c"sl1.lanes"),
        )
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
        let n = self.width;
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
            Opcode::LLVMMul => {
                let by = operands(1);
                let constant = by[0].const_unsigned()?;
                if by.iter().any(|c| c.const_unsigned() != Some(constant)) {
                    return None;
                }
                let (a, by) = (operand_vector(self, 0)?, operand_vector(self, 1)?);
                self.b.mul(a, by, c"sl1.lanes")
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

/// The word whose first lanes `values` are, in order: each lane `i` is
/// `extractelement word, i` of one word of `width` lanes.
fn lanes_of_one_word<'m>(values: &[Value<'m>], width: u32) -> Option<Value<'m>> {
    let word_of = |v: Value<'m>, i: usize| -> Option<Value<'m>> {
        let extract = v.opcode() == Some(Opcode::LLVMExtractElement)
            && operand(v, 1).const_unsigned() == Some(i as u64);
        extract.then(|| operand(v, 0))
    };
    let word = word_of(values[0], 0)?;
    let (_, lanes) = word.ty().vector_shape()?;
    (lanes == width
        && values
            .iter()
            .enumerate()
            .all(|(i, &v)| word_of(v, i) == Some(word)))
    .then_some(word)
}

//! Device tuning: arithmetic on vectors of bytes done on 32-bit words.
//!
//! The GPU has no byte lanes: the backend splits `add <4 x i8>` into four
//! byte extractions, four adds and three packing permutes, and a compare
//! and select of four bytes into some twenty instructions. The same
//! operations on the word that holds the four bytes take a few: an add is
//! `((a & 0x7f..) + (b & 0x7f..)) ^ ((a ^ b) & 0x80..)`, carries kept inside
//! each byte; a compare with a constant leaves each byte's answer in its
//! top bit; a select merges two words under the mask those bits make; a
//! multiply by a constant multiplies the even bytes and the odd bytes, each
//! alone in a 16-bit half, two 32-bit multiplies. Full
//! line runs compute whole words of bytes this way (`transform::line_runs`
//! builds their byte vectors).
//!
//! Vectors of `i8` (and of `i1` from their compares) whose length is a
//! multiple of 4 are lowered; a value of such a vector is held as `i32`
//! words (`<n x i32>` for more than one), an `i1` lane as the top bit of
//! its byte. Values from elsewhere are reinterpreted on the way in, and
//! what other instructions use is turned back on the way out.

use std::collections::{HashMap, HashSet};

use inkwell::module::Module;

use crate::llvm::ir::{Function, IntPredicate, Opcode, Type, Value};
use crate::llvm::typed::{const_vector, TypedBuilder};

/// Each byte's low seven bits, and its top bit.
const LOW: u64 = 0x7f7f_7f7f;
const HIGH: u64 = 0x8080_8080;

/// Lowers every byte-vector operation of `module`; returns how many.
pub fn lower_byte_vectors(module: &Module<'_>) -> usize {
    module
        .get_functions()
        .map(|f| lower_in(Function::of(module, f)))
        .sum()
}

/// What a lowered value is: bytes, or compare answers in the top bits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lanes {
    Bytes,
    Bits,
}

/// Operand `i` of `inst`, which has it (the callers checked its opcode).
fn operand<'m>(inst: Value<'m>, i: u32) -> Value<'m> {
    inst.operand(i).expect("the operand its opcode has")
}

fn lower_in(function: Function<'_>) -> usize {
    let mut candidates: Vec<Value<'_>> = function
        .blocks()
        .into_iter()
        .flat_map(|b| b.instructions())
        .filter(|&i| lowerable(i))
        .collect();
    // Compare answers pay only where lowered instructions take them: made
    // into a vector of `i1` again for any other user, they would cost more
    // than they saved.
    loop {
        let kept: HashSet<Value<'_>> = candidates.iter().copied().collect();
        let before = candidates.len();
        candidates.retain(|&i| {
            lanes_of(i) == Some(Lanes::Bytes) || i.users().iter().all(|u| kept.contains(u))
        });
        if candidates.len() == before {
            break;
        }
    }
    if candidates.is_empty() {
        return 0;
    }
    let mut words: HashMap<Value<'_>, Value<'_>> = HashMap::new();
    for &inst in &candidates {
        let w = Words::before(inst);
        let word = w.lower(inst, &words);
        words.insert(inst, word);
    }
    // Uses left outside the lowered instructions get the vector back; the
    // lowered instructions go, users before what they use.
    for &inst in candidates.iter().rev() {
        if inst.has_uses() {
            let back = Words::before(inst).vector_of(words[&inst], inst);
            inst.replace_all_uses_with(back);
        }
        inst.erase();
    }
    candidates.len()
}

/// `(lanes, words)`: whether `ty` is a vector of `i8` or `i1` whose length
/// is a multiple of 4, and then how many words hold it.
fn byte_vector(ty: Type<'_>) -> Option<(Lanes, u32)> {
    let (element, count) = ty.vector_shape()?;
    if count % 4 != 0 {
        return None;
    }
    let lanes = match element.integer_width()? {
        8 => Lanes::Bytes,
        1 => Lanes::Bits,
        _ => return None,
    };
    Some((lanes, count / 4))
}

/// The lanes of `v` when its type is a byte vector.
fn lanes_of(v: Value<'_>) -> Option<Lanes> {
    byte_vector(v.ty()).map(|(lanes, _)| lanes)
}

/// The constant every lane of `v` holds, when it is one.
fn splat(v: Value<'_>) -> Option<u64> {
    let count = v.ty().vector_shape()?.1;
    let first = v.constant_element(0)?.const_unsigned()?;
    (1..count)
        .all(|i| v.constant_element(i).and_then(|e| e.const_unsigned()) == Some(first))
        .then_some(first)
}

/// `(x, low, end)` when compare `inst` (`pred`, constant `limit`) is a
/// range check on bytes, `x + add <u limit` (`x` in `[low, end)`) or its
/// complement `x + add >u limit` (`x` outside `[low, end)`), whose range
/// does not wrap past 255: then two bounds on `x` itself answer it,
/// without the lane-wise add.
fn range_check<'m>(
    inst: Value<'m>,
    pred: IntPredicate,
    limit: u64,
) -> Option<(Value<'m>, u64, u64)> {
    let sum = operand(inst, 0);
    if sum.opcode() != Some(Opcode::LLVMAdd) {
        return None;
    }
    let add = splat(operand(sum, 1))?;
    let low = (256 - add) % 256;
    let end = match pred {
        IntPredicate::LLVMIntULT => low + limit,
        IntPredicate::LLVMIntUGT => low + limit + 1,
        _ => return None,
    };
    (end <= 256).then_some((operand(sum, 0), low, end))
}

/// `(x, t, R)` when `select` is `select (x in R), x + c, x` (or `select
/// (x not in R), x, x + c`) for a range check on `x` (`range_check`, `R`
/// its `[low, end)`) and adding `c` to any byte in `R` toggles the same
/// bits `t` (no carry or borrow: `'a'..='z'` minus 32 toggles bit 5): then
/// it is `x ^ t` in the lanes inside `R`, without a lane-wise add or select.
fn flip_in_range(select: Value<'_>) -> Option<(Value<'_>, u64, (u64, u64))> {
    let check = operand(select, 0);
    let pred = check.icmp_predicate()?;
    let (x, low, end) = range_check(check, pred, splat(operand(check, 1))?)?;
    // The select's operand that adds, and whether the check's accepted
    // lanes (inside the range for `<u`, outside for `>u`) take it.
    let added = |v: Value<'_>| {
        (v.opcode() == Some(Opcode::LLVMAdd) && operand(v, 0) == x)
            .then(|| splat(operand(v, 1)))
            .flatten()
    };
    let (then, otherwise) = (operand(select, 1), operand(select, 2));
    let inside = pred == IntPredicate::LLVMIntULT;
    let c = match (added(then), added(otherwise)) {
        (Some(c), None) if otherwise == x && inside => c,
        (None, Some(c)) if then == x && !inside => c,
        _ => return None,
    };
    let toggled = ((low + c) % 256) ^ low;
    (low < end && (low..end).all(|v| (v + c) % 256 == v ^ toggled)).then_some((
        x,
        toggled,
        (low, end),
    ))
}

/// Whether `inst` is an operation this rewrite lowers.
fn lowerable(inst: Value<'_>) -> bool {
    let (Some(lanes), Some(opcode)) = (lanes_of(inst), inst.opcode()) else {
        return false;
    };
    let operand_lanes = |i: u32| lanes_of(operand(inst, i));
    match (opcode, lanes) {
        (Opcode::LLVMAdd | Opcode::LLVMSub, Lanes::Bytes) => true,
        (Opcode::LLVMMul, Lanes::Bytes) => splat(operand(inst, 1)).is_some(),
        (Opcode::LLVMAnd | Opcode::LLVMOr | Opcode::LLVMXor, _) => true,
        (Opcode::LLVMShl | Opcode::LLVMLShr, Lanes::Bytes) => {
            splat(operand(inst, 1)).is_some_and(|c| c < 8)
        }
        (Opcode::LLVMICmp, Lanes::Bits) => {
            operand_lanes(0) == Some(Lanes::Bytes) && splat(operand(inst, 1)).is_some()
        }
        (Opcode::LLVMSelect | Opcode::LLVMZExt | Opcode::LLVMSExt, Lanes::Bytes) => {
            operand_lanes(0) == Some(Lanes::Bits)
        }
        (Opcode::LLVMShuffleVector, _) => carried_in(inst).is_some(),
        _ => false,
    }
}

/// What moves into lane 0 of a word's lanes moved up one lane.
#[derive(Clone, Copy)]
enum CarriedIn<'m> {
    /// A value from elsewhere (`insertelement poison, x, 0`).
    Alone(Value<'m>),
    /// Lane `.1` of a byte vector of the same type.
    Lane(Value<'m>, u32),
}

/// What `inst` carries in when it is a word's lanes moved up one lane,
/// `shufflevector from, v, <i, 4, 5, 6>` on four lanes (`byte_lanes`
/// builds it for a value carried from one lane to the next).
fn carried_in(inst: Value<'_>) -> Option<CarriedIn<'_>> {
    let mask = inst.shuffle_mask()?;
    let rest: Vec<Option<u32>> = [4, 5, 6].into_iter().map(Some).collect();
    if mask.len() != 4 || mask[1..] != rest || byte_vector(inst.ty())?.1 != 1 {
        return None;
    }
    let (from, lane) = (operand(inst, 0), mask[0]?);
    if operand(inst, 1).ty() != inst.ty() || from.ty() != inst.ty() {
        return None;
    }
    if from.opcode() == Some(Opcode::LLVMInsertElement) && lane == 0 {
        return (operand(from, 2).const_unsigned() == Some(0))
            .then(|| CarriedIn::Alone(operand(from, 1)));
    }
    Some(CarriedIn::Lane(from, lane))
}

/// Builds word operations before one instruction.
struct Words<'m> {
    b: TypedBuilder<'m>,
}

impl<'m> Words<'m> {
    fn before(inst: Value<'m>) -> Words<'m> {
        Words {
            b: TypedBuilder::before(inst),
        }
    }

    /// The word type holding a byte vector of type `ty`.
    fn word_type(&self, ty: Type<'m>) -> Type<'m> {
        let (_, words) = byte_vector(ty).expect("a byte vector");
        let i32t = self.b.int_type(32);
        if words == 1 {
            i32t
        } else {
            i32t.vector(words)
        }
    }

    /// The vector of bytes as long as vector type `ty`.
    fn bytes_like(&self, ty: Type<'m>) -> Type<'m> {
        let (_, n) = ty.vector_shape().expect("a vector");
        self.b.int_type(8).vector(n)
    }

    /// `pattern` (a 32-bit value) in every word of `like`'s type.
    fn each(&self, like: Value<'m>, pattern: u64) -> Value<'m> {
        let word = self.b.const_int(32, pattern);
        match like.ty().vector_shape() {
            None => word,
            Some((_, n)) => const_vector(&vec![word; n as usize]),
        }
    }

    /// The word form of operand `v` (of a byte-vector type): its lowered
    /// word, or `v` reinterpreted.
    fn word(&self, v: Value<'m>, words: &HashMap<Value<'m>, Value<'m>>) -> Value<'m> {
        if let Some(&w) = words.get(&v) {
            return w;
        }
        let ty = v.ty();
        let (lanes, _) = byte_vector(ty).expect("a byte vector");
        let word_ty = self.word_type(ty);
        if let Some(word) = self.constant_words(v, lanes) {
            return word;
        }
        match lanes {
            Lanes::Bytes => self.b.bitcast(v, word_ty, c"sl1.bytes"),
            Lanes::Bits => {
                let ones = self.b.zext_to(v, self.bytes_like(ty), c"");
                let ones = self.b.bitcast(ones, word_ty, c"");
                let seven = self.each(ones, 7);
                self.b.shl(ones, seven, c"sl1.bits")
            }
        }
    }

    /// The words of `v` when it is a constant whose every lane is known
    /// (lane 0 in the low byte: the GPU is little-endian).
    fn constant_words(&self, v: Value<'m>, lanes: Lanes) -> Option<Value<'m>> {
        let (_, n) = v.ty().vector_shape()?;
        let mut words = Vec::with_capacity(n as usize / 4);
        for w in 0..n / 4 {
            let mut word = 0u64;
            for byte in 0..4 {
                let lane = v.constant_element(w * 4 + byte)?.const_unsigned()?;
                let lane = match lanes {
                    Lanes::Bytes => lane,
                    Lanes::Bits => lane << 7,
                };
                word |= lane << (8 * byte);
            }
            words.push(self.b.const_int(32, word));
        }
        Some(if words.len() == 1 {
            words[0]
        } else {
            const_vector(&words)
        })
    }

    /// The vector `inst`'s type that `word` (its lowered form) stands for.
    fn vector_of(&self, word: Value<'m>, inst: Value<'m>) -> Value<'m> {
        let ty = inst.ty();
        let (lanes, _) = byte_vector(ty).expect("a byte vector");
        match lanes {
            Lanes::Bytes => self.b.bitcast(word, ty, c"sl1.vector"),
            Lanes::Bits => {
                let bytes = self.bytes_like(ty);
                let tops = self.b.bitcast(word, bytes, c"");
                self.b
                    .icmp(IntPredicate::LLVMIntNE, tops, bytes.null(), c"sl1.vector")
            }
        }
    }

    fn and(&self, a: Value<'m>, pattern: u64) -> Value<'m> {
        self.b.and(a, self.each(a, pattern), c"")
    }

    /// Lane-wise `a + b` of bytes: the low seven bits add without leaving
    /// their byte; the top bit is the sum's parity.
    fn add(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        let low = self.b.add(self.and(a, LOW), self.and(b, LOW), c"");
        let top = self.and(self.b.xor(a, b, c""), HIGH);
        self.b.xor(low, top, c"sl1.add")
    }

    /// Lane-wise `a - b`: each byte of `a | 0x80` covers the low seven
    /// bits of `b`, so no borrow leaves it; the top bit is fixed after.
    fn sub(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        let high = self.b.or(a, self.each(a, HIGH), c"");
        let low = self.b.sub(high, self.and(b, LOW), c"");
        let not_b = self.b.not(b, c"");
        let top = self.and(self.b.xor(a, not_b, c""), HIGH);
        self.b.xor(low, top, c"sl1.sub")
    }

    /// Lane-wise `x * c`: each byte alone in a 16-bit half (even bytes,
    /// then odd ones moved down) takes the product, at most 255 * 255, in
    /// that half without reaching the next; its low byte is the lane's.
    fn mul(&self, x: Value<'m>, c: u64) -> Value<'m> {
        const HALVES: u64 = 0x00ff_00ff;
        let by = self.each(x, c & 0xff);
        let even = self.b.mul(self.and(x, HALVES), by, c"");
        let odd_bytes = self.and(self.b.lshr(x, self.each(x, 8), c""), HALVES);
        let odd = self.b.mul(odd_bytes, by, c"");
        let odd_up = self.b.shl(self.and(odd, HALVES), self.each(x, 8), c"");
        self.b.or(self.and(even, HALVES), odd_up, c"sl1.mul")
    }

    /// The top bit of each byte of `x` set where the byte is below `limit`
    /// (unsigned, 0 to 256).
    fn below(&self, x: Value<'m>, limit: u64) -> Value<'m> {
        if limit == 0 {
            return self.each(x, 0);
        }
        if limit >= 256 {
            return self.each(x, HIGH);
        }
        // The low seven bits plus 128 - limit (or 256 - limit) carry into
        // the top bit exactly where they reach limit (or limit - 128).
        let low = self.and(x, LOW);
        if limit <= 128 {
            let t = self
                .b
                .add(low, self.each(x, (128 - limit) * 0x0101_0101), c"");
            let either = self.b.or(x, t, c"");
            self.and(self.b.not(either, c""), HIGH)
        } else {
            let t = self
                .b
                .add(low, self.each(x, (256 - limit) * 0x0101_0101), c"");
            let both = self.b.and(x, t, c"");
            self.and(self.b.not(both, c""), HIGH)
        }
    }

    /// The top bit of each byte of `x` set where it lies in `[low, end)`
    /// (`low <= end <= 256`): below `end` and not below `low`.
    fn within(&self, x: Value<'m>, low: u64, end: u64) -> Value<'m> {
        self.b
            .xor(self.below(x, end), self.below(x, low), c"sl1.within")
    }

    /// The top bit of each byte of `x` set where it equals `c`.
    fn equal(&self, x: Value<'m>, c: u64) -> Value<'m> {
        let diff = self.b.xor(x, self.each(x, c * 0x0101_0101), c"");
        let low_set = self.b.add(self.and(diff, LOW), self.each(x, LOW), c"");
        let any = self.b.or(low_set, diff, c"");
        self.and(self.b.not(any, c""), HIGH)
    }

    /// The top bits of `icmp pred x, c` on every byte of `x`.
    fn compare(&self, pred: IntPredicate, x: Value<'m>, c: u64) -> Value<'m> {
        use IntPredicate::*;
        let flip = |m: Value<'m>| self.b.xor(m, self.each(m, HIGH), c"");
        // Signed order is unsigned order with the top bits flipped.
        let signed = matches!(pred, LLVMIntSLT | LLVMIntSLE | LLVMIntSGT | LLVMIntSGE);
        let (x, c) = if signed {
            (self.b.xor(x, self.each(x, HIGH), c""), c ^ 0x80)
        } else {
            (x, c)
        };
        match pred {
            LLVMIntEQ => self.equal(x, c),
            LLVMIntNE => flip(self.equal(x, c)),
            LLVMIntULT | LLVMIntSLT => self.below(x, c),
            LLVMIntULE | LLVMIntSLE => self.below(x, c + 1),
            LLVMIntUGT | LLVMIntSGT => flip(self.below(x, c + 1)),
            LLVMIntUGE | LLVMIntSGE => flip(self.below(x, c)),
        }
    }

    /// Every bit of a byte set where its top bit is (from compare bits).
    fn full_mask(&self, bits: Value<'m>) -> Value<'m> {
        let ones = self.b.lshr(bits, self.each(bits, 7), c"");
        let rest = self.b.sub(bits, ones, c"");
        self.b.or(rest, bits, c"sl1.mask")
    }

    /// `x` with the bits of `flip` toggled in the bytes whose top bit
    /// `bits` sets: one shift for a single bit.
    fn flip_where(&self, bits: Value<'m>, x: Value<'m>, flip: u64) -> Value<'m> {
        let toggles = if flip.is_power_of_two() {
            let by = 7 - u64::from(flip.trailing_zeros());
            self.b.lshr(bits, self.each(bits, by), c"")
        } else {
            let mask = self.full_mask(bits);
            self.and(mask, flip * 0x0101_0101)
        };
        self.b.xor(x, toggles, c"sl1.flip")
    }

    /// The word form of `inst` (one `lowerable` says yes to), built before
    /// it from its operands' word forms.
    fn lower(&self, inst: Value<'m>, words: &HashMap<Value<'m>, Value<'m>>) -> Value<'m> {
        let op = |i: u32| self.word(operand(inst, i), words);
        let opcode = inst.opcode().expect("an instruction");
        match opcode {
            Opcode::LLVMAdd => self.add(op(0), op(1)),
            Opcode::LLVMSub => self.sub(op(0), op(1)),
            Opcode::LLVMMul => self.mul(op(0), splat(operand(inst, 1)).expect("a constant")),
            Opcode::LLVMAnd => self.b.and(op(0), op(1), c"sl1.and"),
            Opcode::LLVMOr => self.b.or(op(0), op(1), c"sl1.or"),
            Opcode::LLVMXor => self.b.xor(op(0), op(1), c"sl1.xor"),
            Opcode::LLVMShl => {
                let c = splat(operand(inst, 1)).expect("a constant shift");
                let x = op(0);
                let shifted = self.b.shl(x, self.each(x, c), c"");
                self.and(shifted, ((0xffu64 << c) & 0xff) * 0x0101_0101)
            }
            Opcode::LLVMLShr => {
                let c = splat(operand(inst, 1)).expect("a constant shift");
                let x = op(0);
                let shifted = self.b.lshr(x, self.each(x, c), c"");
                self.and(shifted, (0xffu64 >> c) * 0x0101_0101)
            }
            Opcode::LLVMICmp => {
                let pred = inst.icmp_predicate().expect("a compare");
                let c = splat(operand(inst, 1)).expect("a constant");
                if let Some((x, low, end)) = range_check(inst, pred, c) {
                    let x = self.word(x, words);
                    let inside = self.within(x, low, end);
                    return if pred == IntPredicate::LLVMIntULT {
                        inside
                    } else {
                        self.b.xor(inside, self.each(inside, HIGH), c"")
                    };
                }
                self.compare(pred, op(0), c)
            }
            Opcode::LLVMSelect => {
                if let Some((x, flip, (low, end))) = flip_in_range(inst) {
                    let x = self.word(x, words);
                    let inside = self.within(x, low, end);
                    return self.flip_where(inside, x, flip);
                }
                let mask = self.full_mask(op(0));
                let then = self.b.and(op(1), mask, c"");
                let not_mask = self.b.not(mask, c"");
                let otherwise = self.b.and(op(2), not_mask, c"");
                self.b.or(then, otherwise, c"sl1.select")
            }
            Opcode::LLVMZExt => {
                let bits = op(0);
                self.b.lshr(bits, self.each(bits, 7), c"sl1.zext")
            }
            Opcode::LLVMSExt => self.full_mask(op(0)),
            Opcode::LLVMShuffleVector => {
                let moved = self.b.shl(op(1), self.b.const_int(32, 8), c"");
                let bits = lanes_of(inst) == Some(Lanes::Bits);
                let lane = match carried_in(inst).expect("a lane move") {
                    CarriedIn::Alone(x) => {
                        let x = self.b.zext(x, 32, c"");
                        if bits {
                            self.b.shl(x, self.b.const_int(32, 7), c"")
                        } else {
                            x
                        }
                    }
                    CarriedIn::Lane(from, lane) => {
                        let from = self.word(from, words);
                        let down =
                            self.b
                                .lshr(from, self.b.const_int(32, 8 * u64::from(lane)), c"");
                        self.b.and(
                            down,
                            self.b.const_int(32, if bits { 0x80 } else { 0xff }),
                            c"",
                        )
                    }
                };
                self.b.or(moved, lane, c"sl1.carried")
            }
            other => unreachable!("not lowerable: {other:?}"),
        }
    }
}

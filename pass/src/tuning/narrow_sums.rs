//! Device tuning: wide sums of narrow values add them narrow first.
//!
//! A count kept in a 64-bit variable (`words += prev && !space`) and
//! unrolled over a line becomes a chain of 64-bit adds of zero-extended
//! booleans: each is a select and two adds (the low word and the carry) of
//! the integer pipe, which a loop scanning bytes already fills with its
//! compares, and each waits for the one before. The addends' own sum cannot
//! overflow 32 bits (at most 65,536 values of at most 16 bits), so they are
//! added in 32 bits, into two running sums (each add waits on the one two
//! before it), and the result once to the wide value; integer addition
//! wraps, so the order does not change the result. ptxas counts 32-bit
//! booleans with predicated moves and adds of the FMA pipe (H100: `wc`
//! 0.221 -> 0.204 ms, docs/results/2026-11-26-h100-narrow-tuning.txt).

use std::collections::HashMap;

use inkwell::module::Module;

use crate::llvm::ir::{Function, Opcode, Value};
use crate::llvm::typed::TypedBuilder;

use super::add_trees::{add_tree, is_inner};

/// Widest addend summed narrow, in bits.
const NARROW_BITS: u32 = 16;
/// Narrowest sum rewritten, in bits (32-bit adds are one instruction).
const WIDE_BITS: u32 = 33;
/// Most narrow addends of one sum (their total fits 32 bits).
const MOST_ADDENDS: usize = 1 << (32 - NARROW_BITS);

/// Narrow running sums kept side by side, so that each add waits on the
/// one two before it rather than the one just before.
const CHAINS: usize = 2;

/// Rewrites every sum of `module` with at least two narrow addends;
/// returns how many were rewritten.
pub fn narrow_sums(module: &Module<'_>) -> usize {
    let mut rewritten = 0;
    for function in module.get_functions() {
        for block in Function::of(module, function).blocks() {
            let order: HashMap<Value<'_>, usize> = block
                .instructions()
                .into_iter()
                .enumerate()
                .map(|(i, inst)| (inst, i))
                .collect();
            for inst in block.instructions() {
                if let Some(sum) = Sum::rooted_at(inst, &order) {
                    sum.rewrite();
                    rewritten += 1;
                }
            }
        }
    }
    rewritten
}

/// A tree of adds in one block, each but the last used only by another.
struct Sum<'m> {
    /// The adds in block order, the root (the last) included.
    adds: Vec<Value<'m>>,
    /// Per add, its narrow addends: `zext` instructions of narrow values.
    narrow: Vec<Vec<Value<'m>>>,
    /// The other addends.
    wide: Vec<Value<'m>>,
}

impl<'m> Sum<'m> {
    /// The sum whose last add is `inst`, when it has two narrow addends or
    /// more; `None` for an add that is itself inside a larger sum.
    fn rooted_at(inst: Value<'m>, order: &HashMap<Value<'m>, usize>) -> Option<Sum<'m>> {
        if !is_wide_add(inst) || is_inner(inst) {
            return None;
        }
        let tree = add_tree(inst, order);
        let mut sum = Sum {
            narrow: vec![Vec::new(); tree.adds.len()],
            wide: Vec::new(),
            adds: Vec::new(),
        };
        // Each add's addends together, the adds in block order.
        let mut terms = tree.terms;
        terms.sort_by_key(|&(add, _)| add);
        for (add, addend) in terms {
            match narrow_source(addend) {
                Some(_) => sum.narrow[add].push(addend),
                None => sum.wide.push(addend),
            }
        }
        sum.adds = tree.adds;
        let count: usize = sum.narrow.iter().map(Vec::len).sum();
        (2..=MOST_ADDENDS).contains(&count).then_some(sum)
    }

    /// Adds each narrow addend where its wide add was (so that what it
    /// extends is used as soon as before), into `CHAINS` running sums; the
    /// root adds them up, widens that once and adds the wide addends.
    fn rewrite(self) {
        let root = *self.adds.last().expect("a sum has a root");
        let mut chains: Vec<Value<'m>> = Vec::with_capacity(CHAINS);
        let mut next = 0;
        for (&add, narrow) in self.adds.iter().zip(&self.narrow) {
            let b = TypedBuilder::before(add);
            for &z in narrow {
                let source = narrow_source(z).expect("narrow addend");
                let value = b.zext(source, 32, c"sl1.narrow");
                if chains.len() < CHAINS {
                    chains.push(value);
                } else {
                    chains[next] = b.add(chains[next], value, c"sl1.narrow.sum");
                    next = (next + 1) % CHAINS;
                }
            }
        }
        let b = TypedBuilder::before(root);
        let narrow = chains
            .into_iter()
            .reduce(|x, y| b.add(x, y, c"sl1.narrow.sum"))
            .expect("two narrow addends or more");
        let wide_bits = root.integer_bits().expect("a wide add is an integer");
        let mut total = b.zext(narrow, wide_bits, c"sl1.narrow.wide");
        for &w in &self.wide {
            total = b.add(w, total, c"");
        }
        root.replace_all_uses_with(total);
        for &add in self.adds.iter().rev() {
            add.erase();
        }
        // A `zext` may be an addend twice (`acc += x; acc += x`): each is
        // erased once.
        let mut extended: Vec<Value<'m>> = Vec::new();
        for z in self.narrow.into_iter().flatten() {
            if !extended.contains(&z) {
                extended.push(z);
            }
        }
        for z in extended {
            if !z.has_uses() {
                z.erase();
            }
        }
    }
}

/// An integer add wider than 32 bits.
fn is_wide_add(v: Value<'_>) -> bool {
    v.opcode() == Some(Opcode::LLVMAdd) && v.integer_bits().is_some_and(|bits| bits >= WIDE_BITS)
}

/// What `v` zero-extends, when it is a `zext` of at most `NARROW_BITS`.
fn narrow_source(v: Value<'_>) -> Option<Value<'_>> {
    if v.opcode() != Some(Opcode::LLVMZExt) {
        return None;
    }
    let source = v.operand(0)?;
    source
        .integer_bits()
        .is_some_and(|bits| bits <= NARROW_BITS)
        .then_some(source)
}

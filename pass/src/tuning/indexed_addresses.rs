//! Device tuning: an inner loop that reads one array at three or more
//! distances the loop cannot fold into offsets keeps its addresses as index
//! arithmetic, as nvcc's code does.
//!
//! Loop strength reduction (in code generation, after this stage) gives
//! every class of addresses whose distances to the others are run-time
//! values a 64-bit pointer induction variable of its own: the 5-point
//! stencil `in[c - w]`, `in[c + w]`, `in[c - 1..c + 1]`, `out[c]` keeps
//! five, 37 registers a thread where nvcc's code, one 64-bit index with the
//! addresses formed by `IMAD.WIDE`, takes 28, across the step at 32 that
//! takes 256-thread blocks from 100% to 75% occupancy (`stencil2d` 0.79x of
//! nvcc on the H200; `-disable-lsr` for every loop, 28 registers, but
//! `saxpy` 0.68x and `short_chunks` 0.42x: 2026-11-29,
//! `docs/results/2026-11-29-h200-disable-lsr-all.txt`). Here, only in such
//! loops, the induction variable's next value goes through a `mov` in inline
//! PTX, which ptxas folds away but scalar evolution cannot see through: the
//! loop has no induction variable left to reduce, and each address is the
//! index times the element size plus its base, as written.

use std::collections::{BTreeMap, BTreeSet};

use inkwell::module::Module;

use crate::analysis::loop_forest;
use crate::analysis::loops::Loop;
use crate::llvm::ir::{defined_functions, Block, BlockIndex, Function, GepIndex, Opcode, Value};
use crate::llvm::typed::TypedBuilder;

/// Distinct run-time distances from one array (at one stride) that make a
/// loop's addresses stay index arithmetic.
const MIN_DISTANCE_CLASSES: usize = 3;

/// How far an address's arithmetic is followed.
const MAX_DEPTH: u32 = 16;

/// Rewrites every eligible loop of `module`; returns how many.
pub fn index_crowded_addresses(module: &Module<'_>) -> usize {
    let mut rewritten = 0;
    for function in defined_functions(module) {
        let (blocks, forest) = loop_forest(function);
        let index = crate::llvm::ir::block_indices(&blocks);
        // Planned before any change: a rewrite adds an instruction, no block.
        let steps: Vec<Value<'_>> = (0..forest.loops.len())
            .filter(|&l| forest.is_innermost(l))
            .filter_map(|l| crowded_step(function, &forest.loops[l], &blocks, &index))
            .collect();
        for next in steps {
            hide_from_scalar_evolution(next);
            rewritten += 1;
        }
    }
    rewritten
}

/// The next value of loop `lp`'s induction variable (`phi + step`, the
/// step the same every trip) when the loop's loads and stores reach one
/// array, at one stride, from `MIN_DISTANCE_CLASSES` or more sets of
/// run-time terms.
fn crowded_step<'m>(
    function: Function<'m>,
    lp: &Loop,
    blocks: &[Block<'m>],
    index: &BlockIndex<'m>,
) -> Option<Value<'m>> {
    let [latch] = lp.latches[..] else {
        return None;
    };
    let header = blocks[lp.header];
    let latch = blocks[latch];
    let inside = |v: Value<'m>| {
        v.parent_block()
            .and_then(|b| index.get(&b))
            .is_some_and(|i| lp.blocks.contains(i))
    };
    let accesses: Vec<Value<'m>> = lp
        .blocks
        .iter()
        .flat_map(|&b| blocks[b].instructions())
        .filter_map(|inst| {
            if inst.is_plain_load() {
                inst.operand(0)
            } else if inst.is_plain_store() {
                inst.operand(1)
            } else {
                None
            }
        })
        .collect();
    header
        .instructions()
        .into_iter()
        .take_while(|v| v.is_phi())
        .filter(|phi| matches!(phi.ty().integer_width(), Some(32 | 64)))
        .find_map(|phi| {
            let next = phi.incoming_from(latch)?;
            // `phi + step`, `step` the same on every trip (a constant or a
            // value from outside the loop).
            if next.step_from(phi).is_none_or(&inside) {
                return None;
            }
            let walk = Walk {
                function,
                phi,
                inside: &inside,
            };
            let mut classes = DistanceClasses::new();
            for address in &accesses {
                let Some(Form {
                    base: Some(base),
                    per_step,
                    terms,
                    ..
                }) = walk.form(*address, 0)
                else {
                    continue;
                };
                if per_step != 0 {
                    classes
                        .entry((base, per_step))
                        .or_default()
                        .insert(terms.into_iter().collect());
                }
            }
            classes
                .values()
                .any(|c| c.len() >= MIN_DISTANCE_CLASSES)
                .then_some(next)
        })
}

/// The run-time terms of an address, by symbol, with their coefficients.
type Terms = Vec<(usize, i64)>;

/// For each array (by symbol) and stride, the sets of run-time terms its
/// addresses add.
type DistanceClasses = BTreeMap<(usize, i64), BTreeSet<Terms>>;

/// An address as `base + per_step * phi + sum(terms) + constant` bytes.
#[derive(Default)]
struct Form {
    /// The pointer the arithmetic starts from, by its symbol.
    base: Option<usize>,
    /// Bytes per unit of the induction variable.
    per_step: i64,
    /// Run-time values (by symbol) with their coefficients; none zero.
    terms: BTreeMap<usize, i64>,
    constant: i64,
}

impl Form {
    fn add(mut self, other: Form, sign: i64) -> Option<Form> {
        if other.base.is_some() {
            if self.base.is_some() || sign != 1 {
                return None;
            }
            self.base = other.base;
        }
        self.per_step = self
            .per_step
            .checked_add(other.per_step.checked_mul(sign)?)?;
        self.constant = self
            .constant
            .checked_add(other.constant.checked_mul(sign)?)?;
        for (s, c) in other.terms {
            let e = self.terms.entry(s).or_insert(0);
            *e = e.checked_add(c.checked_mul(sign)?)?;
            if *e == 0 {
                self.terms.remove(&s);
            }
        }
        Some(self)
    }

    fn scale(mut self, by: i64) -> Option<Form> {
        if self.base.is_some() {
            return None;
        }
        self.per_step = self.per_step.checked_mul(by)?;
        self.constant = self.constant.checked_mul(by)?;
        for c in self.terms.values_mut() {
            *c = c.checked_mul(by)?;
        }
        self.terms.retain(|_, c| *c != 0);
        Some(self)
    }
}

/// Follows an address's arithmetic in terms of one induction variable.
struct Walk<'a, 'm> {
    function: Function<'m>,
    phi: Value<'m>,
    inside: &'a dyn Fn(Value<'m>) -> bool,
}

impl<'m> Walk<'_, 'm> {
    fn form(&self, v: Value<'m>, depth: u32) -> Option<Form> {
        if depth > MAX_DEPTH {
            return None;
        }
        if v == self.phi {
            return Some(Form {
                per_step: 1,
                ..Form::default()
            });
        }
        if let Some(c) = v.const_int() {
            return Some(Form {
                constant: c,
                ..Form::default()
            });
        }
        let arithmetic = self.arithmetic(v, depth + 1);
        // A value of the loop's surroundings whose arithmetic ends in
        // something else is a run-time term of its own (`y * w`).
        if arithmetic.is_none() && !(self.inside)(v) && !v.ty().is_pointer() {
            return Some(self.symbol(v));
        }
        arithmetic
    }

    /// `v`'s form from its operands', where it is arithmetic this follows.
    fn arithmetic(&self, v: Value<'m>, d: u32) -> Option<Form> {
        let operand = |i: u32| v.operand(i).and_then(|o| self.form(o, d));
        match v.opcode() {
            // Pointer arithmetic is followed outside the loop too, to the
            // array it starts from (`in + w`, hoisted, is `in`'s).
            Some(Opcode::LLVMGetElementPtr) => {
                let mut form = operand(0)?;
                for (i, index) in self.function.gep_indices(v)?.into_iter().enumerate() {
                    let part = match index {
                        GepIndex::Field(offset) => Form {
                            constant: i64::try_from(offset).ok()?,
                            ..Form::default()
                        },
                        GepIndex::Scaled(size) => {
                            operand(i as u32 + 1)?.scale(i64::try_from(size).ok()?)?
                        }
                    };
                    form = form.add(part, 1)?;
                }
                Some(form)
            }
            _ if v.ty().is_pointer() => Some(Form {
                base: Some(v.symbol()),
                ..Form::default()
            }),
            Some(Opcode::LLVMAdd) => operand(0)?.add(operand(1)?, 1),
            Some(Opcode::LLVMOr) if v.is_add() => operand(0)?.add(operand(1)?, 1),
            Some(Opcode::LLVMSub) => operand(0)?.add(operand(1)?, -1),
            Some(Opcode::LLVMMul) => {
                let (a, b) = (v.operand(0)?, v.operand(1)?);
                match (a.const_int(), b.const_int()) {
                    (_, Some(c)) => self.form(a, d)?.scale(c),
                    (Some(c), _) => self.form(b, d)?.scale(c),
                    _ => None,
                }
            }
            Some(Opcode::LLVMShl) => {
                let shift = v.operand(1)?.const_int().filter(|s| (0..63).contains(s))?;
                operand(0)?.scale(1i64 << shift)
            }
            // Widths do not change which array or distance an address has.
            Some(Opcode::LLVMSExt | Opcode::LLVMZExt | Opcode::LLVMTrunc) => operand(0),
            _ => None,
        }
    }

    /// A run-time value of the loop's surroundings.
    fn symbol(&self, v: Value<'m>) -> Form {
        Form {
            terms: BTreeMap::from([(v.symbol(), 1)]),
            ..Form::default()
        }
    }
}

/// Puts `next`, the induction variable's next value, through a `mov` in
/// inline PTX, for every use.
fn hide_from_scalar_evolution(next: Value<'_>) {
    let after = next
        .next_instruction()
        .expect("an add is followed by its block's terminator at least");
    let ty = next.ty();
    let (asm, constraints) = if ty.integer_width() == Some(64) {
        ("mov.b64 $0, $1;", "=l,l")
    } else {
        ("mov.b32 $0, $1;", "=r,r")
    };
    let opaque =
        TypedBuilder::before(after).inline_asm_unary(ty, asm, constraints, next, c"sl1.indexed");
    next.replace_all_uses_with(opaque);
    // The `mov` itself reads the add.
    opaque.set_operand(0, next);
}

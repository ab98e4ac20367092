//! Device tuning: counts over the bytes of a word taken four lanes at once.
//!
//! A full line run (`transform::line_runs`) reads a structure of bytes a
//! word at a time and gives each byte its own copy of the loop body. When
//! the body counts bytes (`wc`: `lines += c == '\n'; words += prev_space
//! && !space`), each copy adds `zext i1` of its own test to the count, and
//! the backend tests the four bytes of a word one by one: some twelve
//! instructions a byte. Where the four tests of one word's lanes are the
//! same expression (`byte_lanes`, which also takes a lane that uses the
//! lane before it), they become one test on a vector of four bytes, which
//! `byte_words` then does on the 32-bit word, and the four terms one:
//! the number of lanes whose answer is true (`llvm.ctpop` of the word of
//! the answers as bytes 0 or 1).
//!
//! Only terms of one sum are taken together: a tree of `add`s in one block
//! whose inner adds have no other use. The tree is built again, without
//! wrap flags, from its other terms and the counts.

use std::collections::{HashMap, HashSet};

use inkwell::module::Module;

use super::add_trees::{add_tree, is_inner, AddTree};
use super::byte_lanes::LaneVectors;
use crate::llvm::ir::{Block, Function, Opcode, Value};
use crate::llvm::typed::TypedBuilder;

/// Deepest expression searched for the word lanes a term reads.
const MAX_DEPTH: u32 = 12;

/// Ways of choosing a word's four terms tried before giving it up.
const MAX_CHOICES: usize = 16;

/// Counts every sum's word lanes together in `module`; returns how many
/// groups of four terms became one.
pub fn count_byte_lanes(module: &Module<'_>) -> usize {
    module
        .get_functions()
        .map(|f| Function::of(module, f))
        .flat_map(|f| f.blocks().into_iter().map(move |b| (f, b)))
        .map(|(f, b)| count_in_block(f, b))
        .sum()
}

/// Operand `i` of `inst`, which has it.
fn operand<'m>(inst: Value<'m>, i: u32) -> Value<'m> {
    inst.operand(i).expect("the operand its opcode has")
}

/// The sums of `block`: trees of integer adds of 8 bits or more, each
/// under a root that is not an inner add of another.
fn sums<'m>(block: Block<'m>) -> Vec<AddTree<'m>> {
    let instructions = block.instructions();
    let order: HashMap<Value<'m>, usize> = instructions
        .iter()
        .enumerate()
        .map(|(i, &v)| (v, i))
        .collect();
    instructions
        .iter()
        .copied()
        .filter(|&v| {
            v.opcode() == Some(Opcode::LLVMAdd)
                && v.integer_bits().is_some_and(|b| b >= 8)
                && !is_inner(v)
        })
        .map(|root| add_tree(root, &order))
        .collect()
}

/// The answer `t` counts when `t` is `zext i1 answer` and neither has
/// another use: an answer something else takes would stay computed lane by
/// lane beside the word's test, which then costs more than it saves.
fn counted_answer(t: Value<'_>) -> Option<Value<'_>> {
    let answer = operand_if(t, Opcode::LLVMZExt)?;
    (answer.integer_bits() == Some(1) && t.users().len() == 1 && answer.users().len() == 1)
        .then_some(answer)
}

fn operand_if(v: Value<'_>, opcode: Opcode) -> Option<Value<'_>> {
    (v.opcode() == Some(opcode)).then(|| operand(v, 0))
}

/// For each word of four bytes whose lanes `answer` reads (through
/// instructions of `block`), the highest lane it reads; the words in the
/// order the search met them (a fixed order: the grouping must not depend
/// on a hash).
fn words_read<'m>(answer: Value<'m>, block: Block<'m>) -> Vec<(Value<'m>, u64)> {
    let mut words: Vec<(Value<'m>, u64)> = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(answer, 0)];
    while let Some((v, depth)) = stack.pop() {
        if depth > MAX_DEPTH || v.parent_block() != Some(block) || !seen.insert(v) {
            continue;
        }
        if v.opcode() == Some(Opcode::LLVMExtractElement) {
            let word = operand(v, 0);
            let four_bytes = word
                .ty()
                .vector_shape()
                .is_some_and(|(e, n)| n == 4 && e.integer_width() == Some(8));
            if let (true, Some(lane)) = (four_bytes, operand(v, 1).const_unsigned()) {
                match words.iter_mut().find(|(w, _)| *w == word) {
                    Some((_, highest)) => *highest = (*highest).max(lane),
                    None => words.push((word, lane)),
                }
            }
            continue;
        }
        for i in 0..v.num_operands() {
            if let Some(o) = v.operand(i) {
                stack.push((o, depth + 1));
            }
        }
    }
    words
}

/// Every instruction of `function`, numbered in block order: words loaded
/// in a block before the sum's are taken in the order they were loaded.
fn instruction_order<'m>(function: Function<'m>) -> HashMap<Value<'m>, usize> {
    #[cfg(test)]
    tests::NUMBERINGS.with(|n| n.set(n.get() + 1));
    function
        .blocks()
        .into_iter()
        .flat_map(|b| b.instructions())
        .enumerate()
        .map(|(i, v)| (v, i + 1))
        .collect()
}

fn count_in_block<'m>(function: Function<'m>, block: Block<'m>) -> usize {
    let mut groups = 0;
    let mut tried = false;
    // A rebuilt sum may have been a term of another: the sums are found
    // again after each one rebuilt, and the instructions numbered again
    // (numbered only once a sum counts a test: a walk of the function per
    // sum made a kernel of thousands of sums take minutes).
    'again: loop {
        let mut order = None;
        for sum in sums(block) {
            let (done, matched) = count_in_sum(function, block, &sum, &mut order);
            tried |= matched;
            if done > 0 {
                groups += done;
                continue 'again;
            }
        }
        break;
    }
    if tried {
        erase_dead(block);
    }
    groups
}

/// Erases the instructions of `block` nothing uses that only compute a
/// value: the scalar tests the counts replaced, and the vectors of lanes
/// that were built for words whose lanes then differed.
fn erase_dead(block: Block<'_>) {
    let pure = |v: Value<'_>| {
        matches!(
            v.opcode(),
            Some(
                Opcode::LLVMAdd
                    | Opcode::LLVMSub
                    | Opcode::LLVMMul
                    | Opcode::LLVMAnd
                    | Opcode::LLVMOr
                    | Opcode::LLVMXor
                    | Opcode::LLVMShl
                    | Opcode::LLVMLShr
                    | Opcode::LLVMAShr
                    | Opcode::LLVMICmp
                    | Opcode::LLVMSelect
                    | Opcode::LLVMZExt
                    | Opcode::LLVMSExt
                    | Opcode::LLVMTrunc
                    | Opcode::LLVMBitCast
                    | Opcode::LLVMExtractElement
                    | Opcode::LLVMInsertElement
                    | Opcode::LLVMShuffleVector
            )
        )
    };
    loop {
        let dead: Vec<_> = block
            .instructions()
            .into_iter()
            .filter(|&v| pure(v) && !v.has_uses())
            .collect();
        if dead.is_empty() {
            return;
        }
        for v in dead.into_iter().rev() {
            v.erase();
        }
    }
}

/// Groups four terms of `sum` that count the same test on the four lanes
/// of one word; rebuilds the sum when any were. Returns how many groups,
/// and whether lanes were matched at all (which may leave dead vectors).
/// `order`: the function's instructions numbered (`instruction_order`),
/// made here when first needed.
fn count_in_sum<'m>(
    function: Function<'m>,
    block: Block<'m>,
    sum: &AddTree<'m>,
    order: &mut Option<HashMap<Value<'m>, usize>>,
) -> (usize, bool) {
    let root = sum.root();
    let all_terms: Vec<Value<'m>> = sum.terms.iter().map(|&(_, t)| t).collect();
    if !all_terms.iter().any(|&t| counted_answer(t).is_some()) {
        return (0, false);
    }
    // Each counted term under each word it reads, at the highest lane of
    // that word it reads (a term that also reads the lane before, of the
    // word before, sits under both words).
    let mut by_lane: HashMap<(Value<'m>, u64), Vec<usize>> = HashMap::new();
    let mut words_in_order: Vec<Value<'m>> = Vec::new();
    let order = &*order.get_or_insert_with(|| instruction_order(function));
    let place = |v: Value<'m>| order.get(&v).copied().unwrap_or(0);
    // The terms in the order of their instructions (the tree lists them
    // from its root down), so that each word's candidates are too.
    let mut terms: Vec<usize> = (0..all_terms.len()).collect();
    terms.sort_by_key(|&i| place(all_terms[i]));
    for i in terms {
        let Some(answer) = counted_answer(all_terms[i]) else {
            continue;
        };
        for (word, lane) in words_read(answer, block) {
            if !words_in_order.contains(&word) {
                words_in_order.push(word);
            }
            by_lane.entry((word, lane)).or_default().push(i);
        }
    }
    // Words in the order they were loaded: a lane carried in from the
    // word before then takes that word's vector.
    words_in_order.sort_by_key(|&w| place(w));
    let matched = !words_in_order.is_empty();
    let mut taken: HashSet<usize> = HashSet::new();
    let mut groups = 0;
    // Each word's test and count are built where its terms were (before
    // the last of them), and added to a running count there: the word's
    // lanes are not kept alive to the sum's root.
    let mut lanes = LaneVectors::before(root);
    let mut point: Option<Value<'m>> = None;
    let mut running: Option<Value<'m>> = None;
    for word in words_in_order {
        let candidates: Vec<Vec<usize>> = (0..4)
            .map(|lane| {
                by_lane
                    .get(&(word, lane))
                    .map(|c| c.iter().copied().filter(|i| !taken.contains(i)).collect())
                    .unwrap_or_default()
            })
            .collect();
        let last = candidates
            .iter()
            .flatten()
            .map(|&i| all_terms[i])
            .chain(point)
            .max_by_key(|t| order[t])
            .expect("a candidate or an earlier point");
        lanes.build_before(last);
        let Some((chosen, vector)) = choose(&all_terms, &candidates, &mut lanes) else {
            continue;
        };
        let b = TypedBuilder::before(last);
        let bytes = b.int_type(8).vector(4);
        let ones = b.zext_to(vector, bytes, c"sl1.lane.ones");
        let word_of_ones = b.bitcast(ones, b.int_type(32), c"");
        let count = b.count_ones(word_of_ones, function, c"sl1.lane.count");
        running = Some(match running {
            None => count,
            Some(r) => b.add(r, count, c"sl1.lane.counts"),
        });
        point = Some(last);
        taken.extend(chosen);
        groups += 1;
    }
    let Some(running) = running else {
        return (0, matched);
    };
    let b = TypedBuilder::before(root);
    // At most 4 a word: the running count fits 32 bits, and one add
    // brings it to the sum's width (integer sums wrap: the order of the
    // terms does not change the result).
    let counted = b.unsigned_cast(running, root.ty(), c"");
    let kept = all_terms
        .iter()
        .enumerate()
        .filter(|(i, _)| !taken.contains(i))
        .map(|(_, &t)| t);
    let total = kept
        .chain(std::iter::once(counted))
        .reduce(|acc, t| b.add(acc, t, c"sl1.lane.sum"))
        .expect("the counts");
    root.replace_all_uses_with(total);
    // The old tree, users first; then the counted terms it alone used.
    for &add in sum.adds.iter().rev() {
        add.erase();
    }
    for &i in &taken {
        all_terms[i].erase();
    }
    (groups, matched)
}

/// One term per lane from `candidates` (the terms under each lane of a
/// word) whose answers are one vector's lanes (`byte_lanes`): the terms
/// and that vector.
fn choose<'m>(
    terms: &[Value<'m>],
    candidates: &[Vec<usize>],
    lanes: &mut LaneVectors<'m>,
) -> Option<(Vec<usize>, Value<'m>)> {
    let mut choice = [0usize; 4];
    for _ in 0..MAX_CHOICES {
        let chosen: Vec<usize> = (0..4)
            .map(|l| candidates[l].get(choice[l]).copied())
            .collect::<Option<_>>()?;
        let distinct: HashSet<_> = chosen.iter().collect();
        if distinct.len() == 4 {
            let answers: Vec<Value<'m>> = chosen
                .iter()
                .map(|&i| counted_answer(terms[i]).expect("a counted term"))
                .collect();
            if let Some(v) = lanes.vector_of(&answers) {
                return Some((chosen, v));
            }
        }
        // The next choice, the last lane's fastest.
        let mut lane = 3;
        loop {
            choice[lane] += 1;
            if choice[lane] < candidates[lane].len() {
                break;
            }
            choice[lane] = 0;
            if lane == 0 {
                return None;
            }
            lane -= 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    thread_local! {
        /// How many times `instruction_order` numbered a function.
        pub(super) static NUMBERINGS: Cell<usize> = const { Cell::new(0) };
    }

    /// A block of `sums` sums that count no test, and, with `counting`,
    /// one word's four lanes counted.
    fn module_text(sums: usize, counting: bool) -> String {
        let mut body = String::new();
        for i in 0..sums {
            body += &format!("  %s{i} = add i32 %x, {i}\n  store volatile i32 %s{i}, ptr %p\n");
        }
        let mut total = "%x".to_string();
        if counting {
            body += "  %v = bitcast i32 %w to <4 x i8>\n";
            for k in 0..4 {
                body += &format!(
                    "  %c{k} = extractelement <4 x i8> %v, i64 {k}\n  \
                     %a{k} = icmp eq i8 %c{k}, 10\n  %z{k} = zext i1 %a{k} to i32\n  \
                     %t{k} = add i32 {total}, %z{k}\n"
                );
                total = format!("%t{k}");
            }
        }
        format!("define i32 @f(i32 %x, i32 %w, ptr %p) {{\n{body}  ret i32 {total}\n}}\n")
    }

    fn numberings_and_groups(sums: usize, counting: bool) -> (usize, usize) {
        let context = Context::create();
        let buffer = MemoryBuffer::create_from_memory_range_copy(
            module_text(sums, counting).as_bytes(),
            "sums",
        );
        let module = context.create_module_from_ir(buffer).unwrap();
        NUMBERINGS.with(|n| n.set(0));
        let groups = super::count_byte_lanes(&module);
        module.verify().unwrap();
        (NUMBERINGS.with(Cell::get), groups)
    }

    #[test]
    fn a_function_is_numbered_only_for_sums_that_count_a_test() {
        // Numbering the function for each of a block's sums made a kernel
        // of 600 sums take 48 s to build (2026-11-30).
        assert_eq!(numberings_and_groups(200, false), (0, 0));
        // Once for the block, whatever its other sums.
        assert_eq!(numberings_and_groups(200, true), (1, 1));
    }
}

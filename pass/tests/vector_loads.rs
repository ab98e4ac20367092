//! Unrolled loops that read adjacent elements get a copy reading them 16 B
//! at a time (`sl1_pass::tuning::vectorize_aligned_loads`) on
//! `testdata/ll/vector_loads.ll`: which loops, and that the rewritten code
//! computes what the original did in LLVM's interpreter, with the first
//! address aligned (the copy runs) and not (the loop runs as it was).

mod common;

use inkwell::basic_block::BasicBlock;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::values::{AnyValue, GenericValue, InstructionOpcode, Operand};
use sl1_pass::tuning::vectorize_aligned_loads;

fn load(context: &Context) -> Module<'_> {
    common::load_case(context, "vector_loads")
}

fn text(module: &Module<'_>, name: &str) -> String {
    module
        .get_function(name)
        .unwrap()
        .print_to_string()
        .to_string()
}

/// `module` with each `freeze` replaced by its operand, for LLVM's
/// interpreter, which has no `freeze` (the unswitched tests are frozen;
/// the tests' values are never poison, so each freeze is its operand).
fn without_freezes(module: &Module<'_>) {
    for function in module.get_functions() {
        for block in function.get_basic_block_iter() {
            let freezes: Vec<_> = block
                .get_instructions()
                .filter(|i| i.get_opcode() == InstructionOpcode::Freeze)
                .collect();
            for freeze in freezes {
                let operand = freeze.get_operand(0).unwrap().unwrap_value();
                let frozen = freeze.as_any_value_enum().into_int_value();
                frozen.replace_all_uses_with(operand.into_int_value());
                freeze.erase_from_basic_block();
            }
        }
    }
}

/// 16-byte aligned storage for `n` 32-bit values.
fn aligned_words(n: usize) -> Vec<u128> {
    vec![0u128; n.div_ceil(4) + 1]
}

fn words(storage: &mut [u128]) -> &mut [u32] {
    // Four u32 per u128, in order, within the allocation.
    let len = storage.len() * 4;
    let ptr = storage.as_mut_ptr().cast::<u32>();
    // SAFETY: u128 storage is valid, initialised and aligned for u32.
    unsafe { std::slice::from_raw_parts_mut(ptr, len) }
}

#[test]
fn loops_reading_aligned_pieces_get_a_copy_and_the_others_stay() {
    let context = Context::create();
    let module = load(&context);
    assert_eq!(vectorize_aligned_loads(&module), 5);
    module.verify().unwrap();
    let dot = text(&module, "dot");
    // One vector load in the copy, one in its short-trip twin.
    assert_eq!(dot.matches("load <4 x i32>").count(), 2, "{dot}");
    assert!(dot.contains("align 16"), "{dot}");
    // The loop's eight loads, and each copy's four of b, n elements apart.
    assert_eq!(dot.matches("load i32").count(), 16, "{dot}");
    let floats = text(&module, "floats");
    assert_eq!(floats.matches("load <4 x float>").count(), 2, "{floats}");
    let rows = text(&module, "rows_int");
    assert_eq!(rows.matches("load <4 x i32>").count(), 2, "{rows}");
    for kept in ["rows_wrapping", "store_between", "odd_stride"] {
        assert!(
            !text(&module, kept).contains(" x "),
            "{}",
            text(&module, kept)
        );
    }
    // Nothing left to do a second time: a loop and its copies share their exit.
    assert_eq!(vectorize_aligned_loads(&module), 0);
}

/// Whether the back edge of `function`'s block named `name` carries loop
/// metadata (the short copy's `llvm.loop.unroll.disable`).
fn latch_has_loop_metadata(
    context: &Context,
    module: &Module<'_>,
    function: &str,
    name: &str,
) -> bool {
    let block = module
        .get_function(function)
        .unwrap()
        .get_basic_block_iter()
        .find(|b| b.get_name().to_str().unwrap() == name)
        .unwrap_or_else(|| panic!("{function} has a block {name}"));
    let kind = context.get_kind_id("llvm.loop");
    block.get_terminator().unwrap().get_metadata(kind).is_some()
}

#[test]
fn the_short_trip_copy_alone_is_kept_from_unrolling() {
    let context = Context::create();
    let module = load(&context);
    assert_eq!(vectorize_aligned_loads(&module), 5);
    for function in ["dot", "floats", "rows_int"] {
        assert!(latch_has_loop_metadata(
            &context,
            &module,
            function,
            "loop.vec.short"
        ));
        assert!(!latch_has_loop_metadata(
            &context, &module, function, "loop.vec"
        ));
        assert!(!latch_has_loop_metadata(
            &context, &module, function, "loop"
        ));
    }
    let printed = module.print_to_string().to_string();
    assert!(
        printed.contains("!\"llvm.loop.unroll.disable\""),
        "{printed}"
    );
    // The test measures the distance to the exit bound in the loop's steps:
    // under 4 iterations of 4 elements (dot's k against m).
    let dot = text(&module, "dot");
    assert!(dot.contains("icmp ult i64 %sl1.vec.distance, 16"), "{dot}");
}

#[test]
fn the_copy_computes_what_the_loop_did_aligned_or_not() {
    let context = Context::create();
    let original = load(&context);
    let tuned = load(&context);
    assert_eq!(vectorize_aligned_loads(&tuned), 5);
    // m = 8: two iterations, the short-trip copy; m = 32: eight, the other.
    for m in [8usize, 32] {
        compare_runs(&context, &original, &tuned, m);
    }
}

fn compare_runs<'c>(context: &'c Context, original: &Module<'c>, tuned: &Module<'c>, m: usize) {
    let n = 3usize;
    let mut a_store = aligned_words(m + 4);
    let mut b_store = aligned_words(m * n);
    let mut f_store = aligned_words(m + 4);
    let mut rows_store = aligned_words(3 * 5 + m + 4);
    for (i, w) in words(&mut a_store).iter_mut().enumerate() {
        *w = (i as u32).wrapping_mul(2654435761) >> 20;
    }
    for (i, w) in words(&mut b_store).iter_mut().enumerate() {
        *w = (i as u32 * 7 + 3) % 23;
    }
    for (i, w) in words(&mut rows_store).iter_mut().enumerate() {
        *w = (i as u32 + 1) * (i as u32 + 7);
    }
    for (i, w) in words(&mut f_store).iter_mut().enumerate() {
        *w = (1.0f32 + i as f32 * 0.37).to_bits();
    }
    let i64t = context.i64_type();
    let f32t = context.f32_type();
    for skew in 0..4 {
        let mut results = Vec::new();
        for module in [original, tuned] {
            let engine = module.create_interpreter_execution_engine().unwrap();
            let a = &mut words(&mut a_store)[skew];
            let b = &mut words(&mut b_store)[0];
            // SAFETY: the pointers stay valid until the calls below return,
            // and cover what the functions read (m elements of `a`, m * n of `b`).
            let args = unsafe {
                [
                    GenericValue::create_generic_value_of_pointer(a),
                    GenericValue::create_generic_value_of_pointer(b),
                    i64t.create_generic_value(n as u64, false),
                    i64t.create_generic_value(m as u64, false),
                ]
            };
            let refs: Vec<_> = args.iter().collect();
            let dot = module.get_function("dot").unwrap();
            // SAFETY: @dot takes two pointers and two i64s, returns an i32.
            let dot = unsafe { engine.run_function(dot, &refs) }.as_int(false);
            let f = &mut words(&mut f_store)[skew];
            // SAFETY: as above; @floats reads 4 * (m / 4) floats from `f`.
            let args = unsafe {
                [
                    GenericValue::create_generic_value_of_pointer(f),
                    i64t.create_generic_value((m / 4) as u64, false),
                ]
            };
            let refs: Vec<_> = args.iter().collect();
            let floats = module.get_function("floats").unwrap();
            // SAFETY: @floats takes a pointer and an i64, returns a float.
            let floats = unsafe { engine.run_function(floats, &refs) }.as_float(&f32t);
            // Rows of 5 ints: row r starts 20 * r bytes in, aligned for r = 0 only.
            let r = &mut words(&mut rows_store)[0];
            let i32t = context.i32_type();
            // SAFETY: @rows_int reads r[skew * 5 ..][..m] of the 3 * 5 + m + 4 words.
            let args = unsafe {
                [
                    GenericValue::create_generic_value_of_pointer(r),
                    i32t.create_generic_value(skew as u64, false),
                    i32t.create_generic_value(5, false),
                    i32t.create_generic_value(m as u64, false),
                ]
            };
            let refs: Vec<_> = args.iter().collect();
            let rows = module.get_function("rows_int").unwrap();
            // SAFETY: @rows_int takes a pointer and three i32s, returns an i32.
            let rows = unsafe { engine.run_function(rows, &refs) }.as_int(false);
            engine.remove_module(module).unwrap();
            results.push((dot, floats.to_bits(), rows));
        }
        assert_eq!(
            results[0], results[1],
            "first element {skew} words past 16 B, m = {m}"
        );
        assert_ne!(results[0].0, 0);
    }
}

#[test]
fn the_copies_run_exactly_when_the_first_address_is_aligned_each_for_its_trips() {
    let context = Context::create();
    let module = load(&context);
    assert_eq!(vectorize_aligned_loads(&module), 5);
    // Mark the copies: each writes its own number over the first float as it
    // loops.
    let floats = module.get_function("floats").unwrap();
    let builder = context.create_builder();
    let first = floats.get_nth_param(0).unwrap().into_pointer_value();
    for (name, mark) in [("loop.vec", 12345u64), ("loop.vec.short", 54321)] {
        let copy = floats
            .get_basic_block_iter()
            .find(|b| b.get_name().to_str().unwrap() == name)
            .unwrap_or_else(|| panic!("a block {name}"));
        builder.position_before(&copy.get_terminator().unwrap());
        let marker = context.i32_type().const_int(mark, false);
        builder.build_store(first, marker).unwrap();
    }
    module.verify().unwrap();
    let i64t = context.i64_type();
    for count in [1u64, 2, 3, 4, 8] {
        for skew in 0..8 {
            let mut storage = aligned_words(48);
            let f = &mut words(&mut storage)[skew];
            let aligned = (f as *mut u32 as usize) % 16 == 0;
            let engine = module.create_interpreter_execution_engine().unwrap();
            // SAFETY: `f` stays valid until the call returns; @floats reads
            // 4 * count floats from it and the markers write the first.
            let args = unsafe {
                [
                    GenericValue::create_generic_value_of_pointer(f),
                    i64t.create_generic_value(count, false),
                ]
            };
            let refs: Vec<_> = args.iter().collect();
            // SAFETY: @floats takes a pointer and an i64, returns a float.
            unsafe { engine.run_function(floats, &refs) };
            engine.remove_module(&module).unwrap();
            let expected = match (aligned, count < 4) {
                (false, _) => None,
                (true, true) => Some(54321),
                (true, false) => Some(12345),
            };
            let first_word = words(&mut storage)[skew];
            let marked = [12345, 54321].contains(&first_word).then_some(first_word);
            assert_eq!(
                marked, expected,
                "{count} iterations, first float {skew} words into 16 B storage"
            );
        }
    }
}

/// Runs @nearest of `module` on `k` centres and a point of `dims4` values
/// starting `skew` words into 16-byte-aligned storage; returns its result
/// and what the copies wrote to the mark.
fn run_nearest(module: &Module<'_>, name: &str, skew: usize, dims4: u64, k: u64) -> (u64, u32) {
    let context = module.get_context();
    let i64t = context.i64_type();
    let mut point = aligned_words(dims4 as usize + 4);
    for (i, w) in words(&mut point).iter_mut().enumerate() {
        *w = (i as u32 * 37 + 11) % 101;
    }
    let mut centres = aligned_words(k as usize);
    for (j, w) in words(&mut centres).iter_mut().enumerate() {
        *w = (j as u32 * 29 + 5) % 97;
    }
    let mut mark = 0u32;
    let engine = module.create_interpreter_execution_engine().unwrap();
    let p = &mut words(&mut point)[skew];
    let c = &mut words(&mut centres)[0];
    // SAFETY: the pointers stay valid until the call returns and cover what
    // @nearest reads (dims4 values of `p`, k of `c`) and the mark it writes.
    let args = unsafe {
        [
            GenericValue::create_generic_value_of_pointer(p),
            GenericValue::create_generic_value_of_pointer(c),
            i64t.create_generic_value(k, false),
            i64t.create_generic_value(dims4, false),
            GenericValue::create_generic_value_of_pointer(&mut mark),
        ]
    };
    let refs: Vec<_> = args.iter().collect();
    let nearest = module.get_function(name).unwrap();
    // SAFETY: @nearest (and @nearest_guarded) takes two pointers, two i64s and a pointer, returns an i64.
    let result = unsafe { engine.run_function(nearest, &refs) }.as_int(false);
    engine.remove_module(module).unwrap();
    (result, mark)
}

#[test]
fn checks_the_same_for_every_iteration_around_are_taken_out_of_that_loop() {
    let context = Context::create();
    let module = load(&context);
    assert_eq!(vectorize_aligned_loads(&module), 5);
    module.verify().unwrap();
    without_freezes(&module);
    let nearest = text(&module, "nearest");
    // The loop over centres four times: aligned and short, for one trip
    // (the twin's first iteration alone) and for more (that iteration, then
    // the twin); aligned and long; not aligned.
    assert_eq!(
        nearest.matches("icmp ult i64 %j.next").count(),
        4,
        "{nearest}"
    );
    assert_eq!(nearest.matches("load <4 x i32>").count(), 4, "{nearest}");
    // Each test made once, for all four copies (which copy runs when is
    // checked below).
    assert_eq!(
        nearest.matches("%sl1.vec.short = icmp").count(),
        1,
        "{nearest}"
    );
    assert_eq!(
        nearest.matches("%sl1.vec.low = and").count(),
        1,
        "{nearest}"
    );
    let original = load(&context);
    let context_i32 = context.i32_type();
    let builder = context.create_builder();
    let function = module.get_function("nearest").unwrap();
    let mark = function.get_nth_param(4).unwrap().into_pointer_value();
    let loop_kind = context.get_kind_id("llvm.loop");
    for block in function.get_basic_block_iter() {
        let text: String = block
            .get_instructions()
            .map(|i| i.print_to_string().to_string() + "\n")
            .collect();
        let name = block.get_name().to_str().unwrap().to_string();
        let terminator = block.get_terminator().unwrap();
        let value = if text.contains("load <4 x i32>") {
            if terminator.get_metadata(loop_kind).is_some() {
                1
            } else if name.contains(".peel") {
                4
            } else {
                2
            }
        } else if name.starts_with("loop") && text.contains("load i32") {
            3
        } else {
            continue;
        };
        builder.position_before(&terminator);
        builder
            .build_store(mark, context_i32.const_int(value, false))
            .unwrap();
    }
    module.verify().unwrap();
    for dims4 in [4u64, 8, 12, 16, 32] {
        for skew in 0..4 {
            let (result, copy) = run_nearest(&module, "nearest", skew, dims4, 5);
            let (expected, _) = run_nearest(&original, "nearest", skew, dims4, 5);
            assert_eq!(result, expected, "{dims4} values, {skew} words past 16 B");
            // The last copy to run writes the mark.
            let wanted = match (skew, dims4) {
                (0, 4) => 4,
                (0, 8 | 12) => 1,
                (0, _) => 2,
                _ => 3,
            };
            assert_eq!(copy, wanted, "{dims4} values, {skew} words past 16 B");
        }
    }
}

/// The blocks of `function` on a cycle through `block`: those it reaches
/// that reach it back.
fn cycle_through<'c>(block: BasicBlock<'c>) -> Vec<BasicBlock<'c>> {
    let successors = |b: BasicBlock<'c>| -> Vec<BasicBlock<'c>> {
        let t = b.get_terminator().unwrap();
        (0..t.get_num_operands())
            .filter_map(|i| match t.get_operand(i) {
                Some(Operand::Block(s)) => Some(s),
                _ => None,
            })
            .collect()
    };
    let reach = |from: BasicBlock<'c>| -> Vec<BasicBlock<'c>> {
        let mut seen = vec![from];
        let mut work = vec![from];
        while let Some(b) = work.pop() {
            for s in successors(b) {
                if !seen.contains(&s) {
                    seen.push(s);
                    work.push(s);
                }
            }
        }
        seen
    };
    reach(block)
        .into_iter()
        .filter(|b| reach(*b).contains(&block))
        .collect()
}

/// The tests on @nearest_guarded's guards (none, fewer than 4, a remainder)
/// made on a cycle through `block`.
fn guards_on_cycle(block: BasicBlock<'_>) -> Vec<String> {
    cycle_through(block)
        .into_iter()
        .map(|b| b.get_terminator().unwrap().print_to_string().to_string())
        .filter(|t| ["%none,", "%few,", "%whole,"].iter().any(|g| t.contains(g)))
        .collect()
}

#[test]
fn guards_the_same_for_every_centre_leave_the_loop_around_the_short_twin() {
    let context = Context::create();
    let original = load(&context);
    let module = load(&context);
    vectorize_aligned_loads(&module);
    module.verify().unwrap();
    without_freezes(&module);
    // Before: each centre tests all three guards.
    let plain = original.get_function("nearest_guarded").unwrap();
    let plain_loop = plain
        .get_basic_block_iter()
        .find(|b| b.get_name().to_str() == Ok("loop"))
        .unwrap();
    assert_eq!(guards_on_cycle(plain_loop).len(), 3);
    // After: the twin's first iteration runs in four copies of the loop over
    // centres (one trip or more, with a remainder or without), the twin
    // itself in two of them; none tests a guard.
    let function = module.get_function("nearest_guarded").unwrap();
    let twins: Vec<_> = function
        .get_basic_block_iter()
        .filter(|b| {
            b.get_name().to_str().unwrap().contains(".short")
                && b.get_instructions()
                    .any(|i| i.print_to_string().to_string().contains("load <4 x i32>"))
        })
        .collect();
    assert_eq!(twins.len(), 6, "{}", text(&module, "nearest_guarded"));
    for twin in twins {
        assert_eq!(
            guards_on_cycle(twin),
            Vec::<String>::new(),
            "{}",
            text(&module, "nearest_guarded")
        );
    }
    for dims in 0..=20u64 {
        for skew in 0..4 {
            let (result, _) = run_nearest(&module, "nearest_guarded", skew, dims, 5);
            let (expected, _) = run_nearest(&original, "nearest_guarded", skew, dims, 5);
            assert_eq!(result, expected, "{dims} values, {skew} words past 16 B");
        }
    }
}

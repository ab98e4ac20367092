//! The driver's device tuning (`sl1_pass::tuning`) on `testdata/ll/device_tuning.ll`:
//! which switches become selects, which divisions are frozen, which range
//! checks are widened and which sums narrowed, and that the rewritten code
//! computes what the original did (run in LLVM's interpreter).

mod common;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::values::{AnyValue, GenericValue};
use sl1_pass::tuning::{
    aggregate_atomics, count_byte_lanes, freeze_divisions, lower_byte_vectors, narrow_sums,
    select_switches, widen_range_checks,
};

fn load(context: &Context) -> Module<'_> {
    common::load_case(context, "device_tuning")
}

fn function_text(module: &Module<'_>, name: &str) -> String {
    module
        .get_function(name)
        .unwrap_or_else(|| panic!("no function {name}"))
        .print_to_string()
        .to_string()
}

#[test]
fn only_switches_that_choose_values_become_selects() {
    let context = Context::create();
    let module = load(&context);
    assert_eq!(select_switches(&module), 3);
    module.verify().unwrap();
    let decode = function_text(&module, "decode");
    assert!(!decode.contains("switch"), "{decode}");
    // Four values of `%code` besides its default, one of `%base`.
    assert_eq!(decode.matches(" select ").count(), 5, "{decode}");
    assert!(function_text(&module, "stores").contains("switch"));
    assert!(function_text(&module, "many").contains("switch"));
    // Nothing left to do a second time.
    assert_eq!(select_switches(&module), 0);
}

#[test]
fn selects_compute_what_the_switch_did() {
    let context = Context::create();
    let original = load(&context);
    let tuned = load(&context);
    assert_eq!(select_switches(&tuned), 3);
    let run = |module: &Module<'_>, name: &str, a: u64, b: Option<&mut u8>| {
        let engine = module.create_interpreter_execution_engine().unwrap();
        let f = module.get_function(name).unwrap();
        let mut args = vec![context.i8_type().create_generic_value(a, false)];
        if let Some(b) = b {
            // SAFETY: `b` lives until the call below returns.
            args.push(unsafe { GenericValue::create_generic_value_of_pointer(b) });
        }
        let args: Vec<_> = args.iter().collect();
        // SAFETY: `decode` takes an i8, `spaces` an i8 and a pointer to one;
        // both return an i32.
        let result = unsafe { engine.run_function(f, &args) }.as_int(true) as i32;
        engine.remove_module(module).unwrap();
        result
    };
    for c in 0..=255u64 {
        let decoded = run(&tuned, "decode", c, None);
        assert_eq!(decoded, run(&original, "decode", c, None), "byte {c}");
    }
    for a in [0, 9, 10, 32, 65] {
        for mut b in [0u8, 10, 13, 32, 255] {
            let tuned_spaces = run(&tuned, "spaces", a, Some(&mut b));
            let spaces = run(&original, "spaces", a, Some(&mut b));
            assert_eq!(tuned_spaces, spaces, "bytes {a} {b}");
        }
    }
}

#[test]
fn switches_in_a_row_become_one_straight_line() {
    let context = Context::create();
    let module = load(&context);
    select_switches(&module);
    module.verify().unwrap();
    let spaces = module.get_function("spaces").unwrap();
    // Each join merged into the block before it: a chain of single-edge
    // blocks per unrolled copy makes LLVM's InstCombine search each one.
    assert_eq!(
        spaces.count_basic_blocks(),
        1,
        "{}",
        function_text(&module, "spaces")
    );
    let text = function_text(&module, "spaces");
    assert!(!text.contains("phi"), "{text}");
    // The first copy's choice feeds only the last block's add: it sinks
    // there, below the second copy's load, as InstCombine would sink it.
    let load = text.find("load i8").unwrap();
    let select = text.find("select").unwrap();
    assert!(load < select, "{text}");
}

#[test]
fn divisions_are_frozen_only_for_nested_loops() {
    let context = Context::create();
    let module = load(&context);
    assert_eq!(freeze_divisions(&module), 1);
    module.verify().unwrap();
    let columns = function_text(&module, "columns");
    assert!(columns.contains("freeze i64 %col"), "{columns}");
    assert!(!columns.contains("freeze i64 %row"), "{columns}");
    assert!(
        columns.contains("getelementptr i32, ptr %b, i64 %"),
        "{columns}"
    );
    assert!(
        !columns.contains("getelementptr i32, ptr %b, i64 %col"),
        "{columns}"
    );
}

/// `icmp PRED (add iBITS %x, ADD), LIMIT` for each case, one function each
/// (`@check_N` returns the compare as i32).
fn range_checks(bits: u32, cases: &[(&str, u64, u64)]) -> String {
    let mut ir = String::new();
    for (i, (pred, add, limit)) in cases.iter().enumerate() {
        ir += &format!(
            "define i32 @check_{i}(i{bits} %x) {{\n  %s = add i{bits} %x, {add}\n  \
             %c = icmp {pred} i{bits} %s, {limit}\n  %r = zext i1 %c to i32\n  ret i32 %r\n}}\n"
        );
    }
    ir
}

fn int_type(context: &Context, bits: u32) -> inkwell::types::IntType<'_> {
    context
        .custom_width_int_type(std::num::NonZeroU32::new(bits).unwrap())
        .unwrap()
}

/// Runs `@name(args)` in LLVM's interpreter, each argument an integer of
/// the width beside it; `@name` returns an integer.
fn run_ints(
    context: &Context,
    module: &Module<'_>,
    name: &str,
    args: &[u64],
    widths: &[u32],
) -> u64 {
    let engine = module.create_interpreter_execution_engine().unwrap();
    let f = module.get_function(name).unwrap();
    let values: Vec<_> = args
        .iter()
        .zip(widths)
        .map(|(&v, &w)| int_type(context, w).create_generic_value(v, false))
        .collect();
    let refs: Vec<_> = values.iter().collect();
    // SAFETY: the caller gives `@name`'s integer parameters and widths.
    let result = unsafe { engine.run_function(f, &refs) }.as_int(false);
    engine.remove_module(module).unwrap();
    result
}

/// Runs `@name(x)` for each x of `inputs` in LLVM's interpreter.
fn run_all(
    context: &Context,
    module: &Module<'_>,
    name: &str,
    bits: u32,
    inputs: &[u64],
) -> Vec<u64> {
    let engine = module.create_interpreter_execution_engine().unwrap();
    let f = module.get_function(name).unwrap();
    let ty = int_type(context, bits);
    let out = inputs
        .iter()
        .map(|&x| {
            let arg = ty.create_generic_value(x, false);
            // SAFETY: the function takes one integer of `bits` and returns an i32.
            unsafe { engine.run_function(f, &[&arg]) }.as_int(false)
        })
        .collect();
    engine.remove_module(module).unwrap();
    out
}

#[test]
fn range_checks_compare_in_32_bits_only_where_their_range_does_not_wrap() {
    // (predicate, add, limit, widened): `-9 <u 2` is 9..=10; `+6 <u 10`
    // is 250..=259, past 255; `>u` tests the complement, which must hold
    // every value below the range's start (`+1 >u 254` is 254 alone).
    let cases8: &[(&str, u64, u64, bool)] = &[
        ("ult", 247, 2, true),
        ("ult", 159, 26, true),
        ("ult", 6, 10, false),
        ("ult", 1, 255, false),
        ("ult", 1, 2, false),
        ("ugt", 247, 1, true),
        ("ugt", 159, 25, true),
        ("ugt", 1, 254, false),
        ("ugt", 100, 154, false),
        ("ugt", 2, 254, false),
        ("ult", 0, 7, true),
        ("ult", 255, 255, true),
    ];
    let cases16: &[(&str, u64, u64, bool)] = &[
        ("ult", 65_000, 500, true),
        ("ult", 100, 65_500, false),
        ("ugt", 65_000, 535, true),
        ("ugt", 65_000, 65_000, false),
        ("ugt", 65_000, 64_999, true),
    ];
    for (bits, cases) in [(8u32, cases8), (16, cases16)] {
        let spec: Vec<_> = cases.iter().map(|&(p, a, l, _)| (p, a, l)).collect();
        let ir = range_checks(bits, &spec);
        let context = Context::create();
        let parse = || {
            let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "checks");
            context.create_module_from_ir(buffer).unwrap()
        };
        let (original, widened) = (parse(), parse());
        let expected = cases.iter().filter(|c| c.3).count();
        assert_eq!(widen_range_checks(&widened), expected, "{bits} bits");
        widened.verify().unwrap();
        assert_eq!(widen_range_checks(&widened), 0, "nothing left to widen");
        let inputs: Vec<u64> = if bits == 8 {
            (0..=255).collect()
        } else {
            (0..=65_535).step_by(7).chain(64_990..=65_535).collect()
        };
        for (i, case) in cases.iter().enumerate() {
            let name = format!("check_{i}");
            let text = function_text(&widened, &name);
            assert_eq!(
                text.contains("%sl1.wide.check = icmp"),
                case.3,
                "{case:?}: {text}"
            );
            assert_eq!(
                run_all(&context, &widened, &name, bits, &inputs),
                run_all(&context, &original, &name, bits, &inputs),
                "{bits} bits, {case:?}"
            );
        }
    }
}

#[test]
fn sums_of_narrow_values_add_them_in_32_bits_first() {
    let context = Context::create();
    let original = load(&context);
    let tuned = load(&context);
    assert_eq!(narrow_sums(&tuned), 2);
    tuned.verify().unwrap();
    let counts = function_text(&tuned, "counts");
    // The four narrow addends in 32 bits, then one widening and two wide adds.
    assert_eq!(counts.matches("= add i32").count(), 3, "{counts}");
    assert_eq!(counts.matches("= add i64").count(), 2, "{counts}");
    assert_eq!(counts.matches("zext i32").count(), 1, "{counts}");
    let untouched = function_text(&tuned, "two_uses");
    assert!(!untouched.contains("i32"), "{untouched}");
    assert_eq!(narrow_sums(&tuned), 0, "nothing left to narrow");

    // (i64, i8, i8, i64, i16, i8) and (i64, i8, i8), each returning an i64.
    let run = |module: &Module<'_>, args: [u64; 6]| {
        run_ints(&context, module, "counts", &args, &[64, 8, 8, 64, 16, 8])
    };
    let twice = |module: &Module<'_>, args: [u64; 3]| {
        run_ints(&context, module, "twice", &args, &[64, 8, 8])
    };
    for args in [[0, 0, 0], [7, 255, 1], [u64::MAX, 200, 255]] {
        assert_eq!(twice(&tuned, args), twice(&original, args), "{args:?}");
    }
    for args in [
        [0, 0, 0, 0, 0, 0],
        [5, 1, 0, 7, 65_535, 255],
        [u64::MAX - 3, 9, 200, 1, 65_535, 255],
        [u64::MAX, 1, 1, u64::MAX, 1, 0],
        [1 << 40, 0, 3, 1 << 63, 40_000, 17],
    ] {
        assert_eq!(run(&tuned, args), run(&original, args), "{args:?}");
    }
}

#[test]
fn atomic_adds_to_one_address_are_made_once_per_warp() {
    let context = Context::create();
    let module = load(&context);
    assert_eq!(aggregate_atomics(&module), 3);
    module.verify().unwrap();
    let totals = function_text(&module, "totals");
    // The two 64-bit adds summed in three parts each, the 32-bit one in one.
    assert_eq!(
        totals.matches("@llvm.nvvm.redux.sync.add(").count(),
        7,
        "{totals}"
    );
    assert_eq!(
        totals.matches("@llvm.nvvm.activemask()").count(),
        3,
        "{totals}"
    );
    assert_eq!(totals.matches(" atomicrmw add ").count(), 6, "{totals}");
    // The warp's lowest active thread makes the atomic, with the sum.
    let lowest = totals
        .lines()
        .filter(|l| l.contains("%sl1.warp.lowest") && l.contains("= icmp eq i32"))
        .count();
    assert_eq!(lowest, 3, "{totals}");
    assert!(
        totals.contains("atomicrmw add ptr %totals, i64 %sl1.warp.sum"),
        "{totals}"
    );
    // The old value used, an address per thread, 16 bits: as they were.
    assert!(
        totals.contains("%old = atomicrmw add ptr %totals, i64 %n seq_cst"),
        "{totals}"
    );
    assert!(
        totals.contains("atomicrmw add ptr %own, i64 %old monotonic"),
        "{totals}"
    );
    assert!(
        totals.contains("atomicrmw add ptr %slots, i16 %h monotonic"),
        "{totals}"
    );
    for kernel in ["fenced", "volta"] {
        let text = function_text(&module, kernel);
        assert!(!text.contains("redux"), "{text}");
    }
    // The helpers were inlined and are gone.
    assert!(module
        .get_functions()
        .all(|f| !f.get_name().to_string_lossy().starts_with("sl1.")));
}

/// The byte-vector cases of `byte_vectors_are_computed_on_words`: the
/// instructions between `%v` (the input bytes) and `%r` (the result
/// bytes); `%s` is `%v` reversed (a vector the rewrite does not make).
fn byte_vector_cases(n: u32) -> Vec<String> {
    let ty = format!("<{n} x i8>");
    let bits = format!("<{n} x i1>");
    let splat = |c: i64| format!("splat (i8 {c})");
    let mut cases = vec![
        format!("%r = add {ty} %v, {}", splat(-97)),
        format!("%r = add {ty} %v, %s"),
        format!("%r = add {ty} %v, %v"),
        format!("%r = sub {ty} %v, %s"),
        format!("%r = sub {ty} {}, %v", splat(10)),
        format!("%a = and {ty} %v, {}\n  %b = or {ty} %a, %s\n  %r = xor {ty} %b, {}", splat(0x5a), splat(-1)),
        format!("%r = shl {ty} %v, {}", splat(3)),
        // Multiplies by constants, each byte's product wrapping: odd, even,
        // 255 and 128; then `in * 3 + 7`.
        format!("%r = mul {ty} %v, {}", splat(3)),
        format!("%r = mul {ty} %v, {}", splat(-74)),
        format!("%r = mul {ty} %v, {}", splat(-1)),
        format!("%r = mul {ty} %v, {}", splat(-128)),
        format!("%m = mul {ty} %v, {}\n  %r = add {ty} %m, {}", splat(3), splat(7)),
        format!("%r = lshr {ty} %v, {}", splat(2)),
        format!("%c = icmp ult {ty} %v, {}\n  %z = zext {bits} %c to {ty}\n  %r = add {ty} %z, %v", splat(100)),
        format!("%c = icmp sgt {ty} %v, {}\n  %z = sext {bits} %c to {ty}\n  %r = xor {ty} %z, %s", splat(-3)),
        // Range checks: inside `[97, 123)`, outside `[48, 58)`, and one
        // that wraps (`[250, 260)`), which compares after the add.
        format!("%a = add {ty} %v, {}\n  %c = icmp ult {ty} %a, {}\n  %r = select {bits} %c, {ty} %s, {ty} %v", splat(-97), splat(26)),
        format!("%a = add {ty} %v, {}\n  %c = icmp ugt {ty} %a, {}\n  %r = select {bits} %c, {ty} %s, {ty} %v", splat(-48), splat(9)),
        format!("%a = add {ty} %v, {}\n  %c = icmp ult {ty} %a, {}\n  %r = select {bits} %c, {ty} %s, {ty} %v", splat(6), splat(10)),
        // Toggles: `'a'..='z'` minus 32 toggles bit 5; plus 5 carries.
        format!("%a = add {ty} %v, {}\n  %c = icmp ult {ty} %a, {}\n  %u = add {ty} %v, {}\n  %r = select {bits} %c, {ty} %u, {ty} %v", splat(-97), splat(26), splat(-32)),
        format!("%a = add {ty} %v, {}\n  %c = icmp ugt {ty} %a, {}\n  %u = add {ty} %v, {}\n  %r = select {bits} %c, {ty} %v, {ty} %u", splat(-65), splat(25), splat(32)),
        format!("%a = add {ty} %v, {}\n  %c = icmp ult {ty} %a, {}\n  %u = add {ty} %v, {}\n  %r = select {bits} %c, {ty} %u, {ty} %v", splat(-97), splat(26), splat(5)),
        // Answers combined, and one answer leaving as a vector of `i1`.
        format!("%c1 = icmp ugt {ty} %v, {}\n  %c2 = icmp ult {ty} %v, {}\n  %c = and {bits} %c1, %c2\n  %d = xor {bits} %c, splat (i1 true)\n  %r = select {bits} %d, {ty} %v, {ty} %s", splat(64), splat(91)),
        format!("%c = icmp eq {ty} %v, {}\n  %r = zext {bits} %c to {ty}\n  %m = bitcast {bits} %c to i{n}\n  store i{n} %m, ptr %sink", splat(32)),
    ];
    if n == 4 {
        // Lanes moved up one (`byte_lanes`' carried values): lane 0 from a
        // lane of another vector, of bytes and of answers, or alone.
        cases.push(format!(
            "%m = shufflevector {ty} %s, {ty} %v, <4 x i32> <i32 3, i32 4, i32 5, i32 6>\n  %r = add {ty} %m, %v"
        ));
        cases.push(format!(
            "%c = icmp ult {ty} %v, {}\n  %e = icmp eq {ty} %s, {}\n  %m = shufflevector {bits} %e, {bits} %c, <4 x i32> <i32 2, i32 4, i32 5, i32 6>\n  %r = select {bits} %m, {ty} %v, {ty} %s",
            splat(100),
            splat(7)
        ));
        cases.push(format!(
            "%x = extractelement {ty} %s, i64 1\n  %i = insertelement {ty} poison, i8 %x, i64 0\n  %m = shufflevector {ty} %i, {ty} %v, <4 x i32> <i32 0, i32 4, i32 5, i32 6>\n  %r = xor {ty} %m, %v"
        ));
        // A count of true answers, as `byte_lane_counts` makes it.
        cases.push(format!(
            "%q = icmp ult {ty} %v, {}\n  %z = zext {bits} %q to {ty}\n  %w = bitcast {ty} %z to i32\n  %p = call i32 @llvm.ctpop.i32(i32 %w)\n  %r = bitcast i32 %p to {ty}",
            splat(100)
        ));
    }
    let predicates = [
        "eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge",
    ];
    for p in predicates {
        for c in [0i64, 1, 26, 97, 127, 128, 129, 200, 255] {
            cases.push(format!(
                "%c = icmp {p} {ty} %v, {}\n  %r = select {bits} %c, {ty} %v, {ty} %s",
                splat(c)
            ));
        }
    }
    cases
}

/// One function per case of `byte_vector_cases(n)`: words in, the word
/// `k` of the result out (for 4 lanes, the one word).
fn byte_vector_module(n: u32) -> String {
    let ty = format!("<{n} x i8>");
    let reverse: Vec<String> = (0..n).rev().map(|i| format!("i32 {i}")).collect();
    let mut ir = String::new();
    for (i, body) in byte_vector_cases(n).iter().enumerate() {
        let (params, input) = if n == 4 {
            (
                "i32 %w0, i32 %k, ptr %sink".to_string(),
                format!("  %v = bitcast i32 %w0 to {ty}\n"),
            )
        } else {
            let words = n / 4;
            let params: Vec<String> = (0..words).map(|j| format!("i32 %w{j}")).collect();
            let mut input = String::new();
            let mut acc = "poison".to_string();
            for j in 0..words {
                input += &format!(
                    "  %in{j} = insertelement <{words} x i32> {acc}, i32 %w{j}, i32 {j}\n"
                );
                acc = format!("%in{j}");
            }
            input += &format!("  %v = bitcast <{words} x i32> {acc} to {ty}\n");
            (format!("{}, i32 %k, ptr %sink", params.join(", ")), input)
        };
        let output = if n == 4 {
            "  %o = bitcast <4 x i8> %r to i32\n  ret i32 %o\n".to_string()
        } else {
            format!(
                "  %o = bitcast {ty} %r to <{w} x i32>\n  %e = extractelement <{w} x i32> %o, i32 %k\n  ret i32 %e\n",
                w = n / 4
            )
        };
        ir += &format!(
            "define i32 @bytes_{i}({params}) {{\n{input}  %s = shufflevector {ty} %v, {ty} poison, <{n} x i32> <{}>\n  {body}\n{output}}}\n",
            reverse.join(", ")
        );
    }
    ir
}

/// Words that put every byte value in every lane, beside varied others.
fn lane_words(count: u32) -> Vec<Vec<u64>> {
    (0..256u64)
        .map(|v| {
            (0..count)
                .map(|j| {
                    let lane = |i: u64| (v * (2 * i + 1) + 37 * i + 11 * u64::from(j)) & 255;
                    lane(0) | lane(1) << 8 | lane(2) << 16 | lane(3) << 24
                })
                .collect()
        })
        .collect()
}

#[test]
fn byte_vectors_are_computed_on_words() {
    for n in [4u32, 16] {
        let ir = byte_vector_module(n);
        let context = Context::create();
        let parse = || {
            let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "bytes");
            context.create_module_from_ir(buffer).unwrap()
        };
        let (original, lowered) = (parse(), parse());
        assert!(lower_byte_vectors(&lowered) > 0, "{n} lanes");
        lowered.verify().unwrap();
        let words = n / 4;
        let cases = byte_vector_cases(n);
        for (i, case) in cases.iter().enumerate() {
            let name = format!("bytes_{i}");
            let text = function_text(&lowered, &name);
            // The answer that leaves as a vector of `i1` keeps its compare.
            if case.contains("bitcast <") && case.contains("x i1> %c to") {
                assert!(
                    text.contains(&format!("icmp eq <{n} x i8>")),
                    "{case}: {text}"
                );
            } else {
                assert!(!text.contains("icmp"), "{case}: {text}");
            }
            // A multiply by a constant splat is done on the words too.
            assert!(!text.contains(&format!("mul <{n} x i8>")), "{case}: {text}");
            let run = |module: &Module<'_>| -> Vec<u64> {
                let engine = module.create_interpreter_execution_engine().unwrap();
                let f = module.get_function(&name).unwrap();
                let mut out = Vec::new();
                for input in lane_words(words) {
                    for k in 0..words {
                        let mut args: Vec<GenericValue> = input
                            .iter()
                            .map(|&w| context.i32_type().create_generic_value(w, false))
                            .collect();
                        args.push(context.i32_type().create_generic_value(u64::from(k), false));
                        let mut refs: Vec<&GenericValue> = args.iter().collect();
                        let mut slot = 0u64;
                        let ptr =
                            unsafe { GenericValue::create_generic_value_of_pointer(&mut slot) };
                        refs.push(&ptr);
                        // SAFETY: `@bytes_i` takes the words, `k` and a pointer
                        // to 8 writable bytes, and returns an i32.
                        out.push(unsafe { engine.run_function(f, &refs) }.as_int(false));
                    }
                }
                engine.remove_module(module).unwrap();
                out
            };
            assert_eq!(run(&lowered), run(&original), "{n} lanes: {case}");
        }
    }
}

/// A function of two words of bytes (`%w0`, `%w1`) and a carried answer
/// (`%prev`) returning a sum of `zext` answers over their eight lanes, as a
/// full line run unrolls a counting loop: `answer` gives the instructions
/// of a lane (`%C` its byte, `%P` the lane before's `%K`, temporaries
/// `%T1`...), which define `%A` (the counted answer) and `%K`.
fn lane_count_function(name: &str, sum_bits: u32, answer: &str) -> String {
    let mut body = String::new();
    let mut prev = "%prev".to_string();
    let mut total = "%acc".to_string();
    for w in 0..2 {
        body += &format!("  %v{w} = bitcast i32 %w{w} to <4 x i8>\n");
        for k in 0..4 {
            let lane = answer
                .replace("%P", &prev)
                .replace("%C", &format!("%c{w}{k}"))
                .replace("%A", &format!("%a{w}{k}"))
                .replace("%K", &format!("%carry{w}{k}"))
                .replace("%T", &format!("%t{w}{k}."));
            body += &format!("  %c{w}{k} = extractelement <4 x i8> %v{w}, i64 {k}\n{lane}\n");
            body += &format!("  %z{w}{k} = zext i1 %a{w}{k} to i{sum_bits}\n");
            body += &format!("  %s{w}{k} = add i{sum_bits} {total}, %z{w}{k}\n");
            total = format!("%s{w}{k}");
            prev = format!("%carry{w}{k}");
        }
    }
    let ret = if sum_bits == 64 {
        format!("  ret i64 {total}")
    } else {
        format!("  %r = zext i{sum_bits} {total} to i64\n  ret i64 %r")
    };
    format!(
        "define i64 @{name}(i32 %w0, i32 %w1, i1 %prev, i{sum_bits} %acc) {{\n{body}{ret}\n}}\n"
    )
}

#[test]
fn byte_lane_counts_count_what_the_lanes_did() {
    // wc's two counts, a range test, and sums of 8 and 32 bits (which wrap).
    let space = "  %T1 = icmp eq i8 %C, 32\n  %T2 = add i8 %C, -9\n  %T3 = icmp ult i8 %T2, 2\n  \
                 %K = or i1 %T1, %T3\n  %T4 = xor i1 %K, true\n  %A = and i1 %P, %T4";
    let cases = [
        ("words", 64, space.to_string()),
        ("words_i8", 8, space.to_string()),
        (
            "lines",
            32,
            "  %A = icmp eq i8 %C, 10\n  %K = icmp eq i8 %C, 0".to_string(),
        ),
        (
            "digits_after_digits",
            16,
            "  %T1 = add i8 %C, -48\n  %K = icmp ult i8 %T1, 10\n  %A = and i1 %K, %P".to_string(),
        ),
    ];
    let ir: String = cases
        .iter()
        .map(|(name, bits, answer)| lane_count_function(name, *bits, answer))
        .collect();
    let context = Context::create();
    let parse = || {
        let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "lanes");
        context.create_module_from_ir(buffer).unwrap()
    };
    let (original, rewritten) = (parse(), parse());
    // Two words in each of the four functions.
    assert_eq!(count_byte_lanes(&rewritten), 8);
    assert!(lower_byte_vectors(&rewritten) > 0);
    rewritten.verify().unwrap();
    for (name, bits, _) in &cases {
        let text = function_text(&rewritten, name);
        assert!(!text.contains("zext i1 %a"), "{name}: {text}");
        assert!(text.contains("@llvm.ctpop.i32"), "{name}: {text}");
        let widths = [32, 32, 1, *bits];
        for words in lane_words(2) {
            for prev in [0, 1] {
                for acc in [0u64, 250] {
                    let args = [words[0], words[1], prev, acc];
                    assert_eq!(
                        run_ints(&context, &rewritten, name, &args, &widths),
                        run_ints(&context, &original, name, &args, &widths),
                        "{name}({args:?})"
                    );
                }
            }
        }
    }
}

/// Three words loaded in the block before the one that counts them (as a
/// full run's copies load them at its top): the words are taken in the
/// order they were loaded, so each word's carried lane comes from the word
/// before's vector (no scalar test of a byte is left), the same in every
/// build. The order once came from a hash: the same module gave other code
/// from one build to the next.
#[test]
fn byte_lane_counts_take_words_in_the_order_they_were_loaded() {
    let mut ir = String::from("define i64 @words(ptr %p, i1 %prev, i64 %acc) {\nentry:\n");
    for w in 0..3 {
        ir += &format!(
            "  %a{w} = getelementptr i8, ptr %p, i64 {}\n  %v{w} = load <4 x i8>, ptr %a{w}, align 4\n",
            4 * w
        );
    }
    ir += "  br label %count\ncount:\n";
    let (mut prev, mut total) = ("%prev".to_string(), "%acc".to_string());
    for w in 0..3 {
        for k in 0..4 {
            let n = format!("{w}{k}");
            ir += &format!(
                "  %c{n} = extractelement <4 x i8> %v{w}, i64 {k}\n  %e{n} = icmp eq i8 %c{n}, 32\n  \
                 %d{n} = add i8 %c{n}, -9\n  %r{n} = icmp ult i8 %d{n}, 2\n  %s{n} = or i1 %e{n}, %r{n}\n  \
                 %ns{n} = xor i1 %s{n}, true\n  %a{n} = and i1 {prev}, %ns{n}\n  \
                 %z{n} = zext i1 %a{n} to i64\n  %t{n} = add i64 {total}, %z{n}\n"
            );
            prev = format!("%s{n}");
            total = format!("%t{n}");
        }
    }
    ir += &format!("  ret i64 {total}\n}}\n");
    let context = Context::create();
    let texts: Vec<String> = (0..8)
        .map(|_| {
            let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "order");
            let module = context.create_module_from_ir(buffer).unwrap();
            assert_eq!(count_byte_lanes(&module), 3);
            lower_byte_vectors(&module);
            module.verify().unwrap();
            function_text(&module, "words")
        })
        .collect();
    assert!(
        texts.iter().all(|t| *t == texts[0]),
        "{}\n---\n{}",
        texts[0],
        texts[1]
    );
    assert!(!texts[0].contains("icmp"), "{}", texts[0]);
}

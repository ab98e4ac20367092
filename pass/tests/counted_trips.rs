//! Counted trips (`sl1_pass::tuning::count_trips`): a rewritten loop nest
//! runs its inner loop exactly as often as before, at the edges too: an
//! inner loop entered with its start at or past its end (a rotated loop
//! runs once), a start whose `+ 1` wraps, an exit on `!=` that wraps around
//! zero, an exit test written the other way round, 32-bit counters. Each
//! function returns a hash of every inner iteration's `i` and their number,
//! run in LLVM's interpreter before and after the rewrite.

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::values::GenericValue;
use sl1_pass::tuning::count_trips;

/// `@NAME(first, stride, outer, chunk, n)`: for k < outer, begin = first +
/// k * stride, the inner loop from begin (entered without a guard) while
/// `EXIT`; returns the hash. `TY` is the counters' type.
const NEST: &str = r#"
define i64 @NAME(TY %first, TY %stride, TY %outer, TY %chunk, TY %n) {
entry:
  br label %outer.head

outer.head:
  %k = phi TY [ 0, %entry ], [ %k.next, %outer.next ]
  %acc = phi i64 [ 0, %entry ], [ %acc.inner, %outer.next ]
  %scaled = mul TY %k, %stride
  %begin = add TY %first, %scaled
  %plus = add TY %begin, %chunk
  %lt = icmp ult TY %plus, %n
  %end = select i1 %lt, TY %plus, TY %n
  br label %inner

inner:
  %i = phi TY [ %begin, %outer.head ], [ %i.next, %inner ]
  %h = phi i64 [ %acc, %outer.head ], [ %h.next, %inner ]
  %wide = WIDEN
  %h.mul = mul i64 %h, 1000003
  %h.next = add i64 %h.mul, %wide
  %i.next = add TY %i, 1
  EXIT

outer.next:
  %acc.inner = phi i64 [ %h.next, %inner ]
  %k.next = add TY %k, 1
  %again = icmp ult TY %k.next, %outer
  br i1 %again, label %outer.head, label %done

done:
  %r = phi i64 [ %acc.inner, %outer.next ]
  ret i64 %r
}
"#;

/// The exit tests: name, type, the latch's compare and branch.
const EXITS: [(&str, &str, &str); 5] = [
    (
        "below",
        "i64",
        "%more = icmp ult i64 %i.next, %end\n  br i1 %more, label %inner, label %outer.next",
    ),
    (
        "below_swapped",
        "i64",
        "%stop = icmp ule i64 %end, %i.next\n  br i1 %stop, label %outer.next, label %inner",
    ),
    (
        "not_equal",
        "i64",
        "%more = icmp ne i64 %i.next, %end\n  br i1 %more, label %inner, label %outer.next",
    ),
    (
        "equal_exits",
        "i64",
        "%stop = icmp eq i64 %end, %i.next\n  br i1 %stop, label %outer.next, label %inner",
    ),
    (
        "below32",
        "i32",
        "%more = icmp ult i32 %i.next, %end\n  br i1 %more, label %inner, label %outer.next",
    ),
];

/// The nest named `name` with counters of type `ty` and exit test `exit`.
fn nest(name: &str, ty: &str, exit: &str) -> String {
    let widen = if ty == "i64" {
        "or i64 %i, 0".to_string()
    } else {
        format!("zext {ty} %i to i64")
    };
    NEST.replace("WIDEN", &widen)
        .replace("NAME", name)
        .replace("TY", ty)
        .replace("EXIT", exit)
}

fn module_text() -> String {
    EXITS
        .iter()
        .map(|(name, ty, exit)| nest(name, ty, exit))
        .collect()
}

fn parse<'c>(context: &'c Context, text: &str) -> Module<'c> {
    let buffer = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "counted_trips");
    context.create_module_from_ir(buffer).unwrap()
}

/// `@name(args)` in LLVM's interpreter.
fn run(context: &Context, module: &Module<'_>, name: &str, bits: u32, args: [u64; 5]) -> u64 {
    let engine = module.create_interpreter_execution_engine().unwrap();
    let f = module.get_function(name).unwrap();
    let ty = context
        .custom_width_int_type(std::num::NonZeroU32::new(bits).unwrap())
        .unwrap();
    let values: Vec<GenericValue> = args
        .iter()
        .map(|&v| ty.create_generic_value(v, false))
        .collect();
    let refs: Vec<&GenericValue> = values.iter().collect();
    // SAFETY: every function takes five integers of `bits` and returns an i64.
    let result = unsafe { engine.run_function(f, &refs) }.as_int(false);
    engine.remove_module(module).unwrap();
    result
}

#[test]
fn every_exit_test_is_rewritten_and_counts_the_same_trips() {
    let context = Context::create();
    let original = parse(&context, &module_text());
    let frozen = parse(&context, &module_text());
    assert_eq!(count_trips(&frozen), EXITS.len());
    frozen.verify().unwrap();
    let text = frozen.print_to_string().to_string();
    assert_eq!(text.matches(" = freeze ").count(), EXITS.len(), "{text}");
    let rewritten = parse(&context, &without_freezes(&text));
    let max = u64::MAX;
    // (first, stride, outer, chunk, n): chunks within n, chunks cut by n,
    // starts past the end (one trip each), a start whose + 1 wraps, and
    // `!=` loops whose end lies a few steps past a wrap.
    let below_inputs = [
        [0, 8, 4, 8, 30],
        [3, 5, 6, 7, 20],
        [50, 1, 3, 4, 20],
        [max, 1, 1, 2, 5],
        [max - 2, 1, 3, 10, 4],
    ];
    let not_equal_inputs = [[0, 8, 4, 8, 64], [max - 1, 0, 2, 9, 3], [5, 1, 3, 6, 12]];
    for (name, ty, _) in EXITS {
        let bits = if ty == "i32" { 32 } else { 64 };
        let inputs: &[[u64; 5]] = if name.contains("equal") {
            &not_equal_inputs
        } else {
            &below_inputs
        };
        for &args in inputs {
            let args = args.map(|a| if bits == 32 { a & 0xffff_ffff } else { a });
            let before = run(&context, &original, name, bits, args);
            let after = run(&context, &rewritten, name, bits, args);
            assert_eq!(before, after, "@{name}{args:?}");
        }
    }
}

/// `text` with each `freeze TY %x` made `add TY %x, 0`: LLVM's interpreter
/// has no `freeze`, which of a defined value is that value.
fn without_freezes(text: &str) -> String {
    text.lines()
        .map(|line| match line.split_once(" = freeze ") {
            Some((name, operand)) => format!("{name} = add {operand}, 0"),
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_loop_whose_end_adds_to_its_start_or_outside_a_loop_stays() {
    let context = Context::create();
    // The end `begin + chunk`: LLVM's unroller prices its trip count cheap.
    let cheap = nest("cheap", "i64", EXITS[0].2).replace(
        "%end = select i1 %lt, i64 %plus, i64 %n",
        "%end = add i64 %begin, %chunk",
    );
    // No enclosing loop: the start does not move.
    let alone = r#"
define i64 @alone(i64 %begin, i64 %end) {
entry:
  br label %loop
loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %done
done:
  ret i64 %i
}
"#;
    let module = parse(&context, &format!("{cheap}{alone}"));
    assert_eq!(count_trips(&module), 0);
}

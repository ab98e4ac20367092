//! `llvm::ir`'s typed values read what LLVM's C API would, and never ask
//! LLVM something of a value that is not of the kind the question needs.

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::llvm::ir::{Function, ValueKind};

const MODULE: &str = r#"
define i32 @f(i32 %a) {
entry:
  %b = add i32 %a, 1
  ret i32 %b
}
"#;

#[test]
fn only_instructions_have_a_parent_block() {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(MODULE.as_bytes(), "m");
    let module = context.create_module_from_ir(buffer).unwrap();
    let f = Function::of(&module, module.get_function("f").unwrap());
    let entry = f.blocks()[0];
    let add = entry.instructions()[0];
    assert!(matches!(add.kind(), ValueKind::Instruction(_)));
    assert_eq!(add.parent_block(), Some(entry));
    // An argument and a constant belong to no block: asking LLVM for an
    // instruction's parent of them reads memory that is not there.
    let argument = f.params()[0];
    assert_eq!(argument.parent_block(), None);
    let one = add.operand(1).unwrap();
    assert!(one.is_constant());
    assert_eq!(one.parent_block(), None);
}

#[test]
fn atomic_loads_and_stores_are_told_apart_and_acquire_loads_order_memory() {
    // An acquire load orders the loads after it: rewrites that move or
    // combine loads (vector loads, loads ahead of stores) must not cross it,
    // as they must not cross a store.
    let context = Context::create();
    let text = r#"
define void @g(ptr %p, ptr %q) {
entry:
  %plain = load i32, ptr %p, align 4
  %relaxed = load atomic i32, ptr %p monotonic, align 4
  %acquire = load atomic i32, ptr %p acquire, align 4
  store atomic i32 %plain, ptr %q release, align 4
  store atomic i32 %relaxed, ptr %q monotonic, align 4
  store i32 %acquire, ptr %q, align 4
  ret void
}
"#;
    let buffer = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "m");
    let module = context.create_module_from_ir(buffer).unwrap();
    let f = Function::of(&module, module.get_function("g").unwrap());
    let insts = f.blocks()[0].instructions();
    let atomic: Vec<bool> = insts[..6]
        .iter()
        .map(|i| i.is_atomic_load_or_store())
        .collect();
    assert_eq!(atomic, [false, true, true, true, true, false]);
    let ordering: Vec<bool> = insts[..6]
        .iter()
        .map(|i| i.is_ordering_load_or_store())
        .collect();
    assert_eq!(ordering, [false, false, true, true, false, false]);
    let writes: Vec<bool> = insts[..3].iter().map(|i| i.may_write_memory()).collect();
    assert_eq!(writes, [false, false, true]);
}

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

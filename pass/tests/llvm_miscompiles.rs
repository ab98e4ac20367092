//! The known LLVM miscompiles S-L1's output meets are avoided
//! (`sl1_pass::llvm::miscompiles`). LLVM 22's VectorCombine copies a vector
//! op's `exact` onto the scalar instruction its scalar form folds to
//! (llvm/llvm-project#192607): here the first of two peeled iterations, as
//! S-L1's monitoring slice peels them (fuzz seed 121612, threshold 7), after
//! which InstCombine made `(x >> 27) << 2` into `x >> 25`.

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::passes::PassBuilderOptions;
use inkwell::values::AnyValue;
use sl1_pass::llvm::miscompiles::avoid_llvm_miscompiles;

mod common;
use common::nvptx_machine;

const PEELED: &str = r#"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define i32 @peeled(i32 %x, ptr %p) {
  %s = lshr i32 %x, 27
  store i32 %s, ptr %p, align 4
  %m = shl nuw nsw i32 %s, 2
  %v = insertelement <4 x i32> <i32 poison, i32 0, i32 0, i32 0>, i32 %m, i64 0
  %r = lshr exact <4 x i32> %v, splat (i32 2)
  %q = getelementptr i8, ptr %p, i64 16
  store <4 x i32> %r, ptr %q, align 16
  %w = shl i32 %s, 2
  ret i32 %w
}
"#;

#[test]
fn vector_combine_puts_no_poison_flag_on_an_existing_instruction() {
    assert!(
        avoid_llvm_miscompiles(),
        "an LLVM option it sets is missing"
    );
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(PEELED.as_bytes(), "peeled");
    let module = context.create_module_from_ir(buffer).unwrap();
    module
        .run_passes(
            "vector-combine,instcombine",
            &nvptx_machine(),
            PassBuilderOptions::create(),
        )
        .unwrap();
    let text = module
        .get_function("peeled")
        .unwrap()
        .print_to_string()
        .to_string();
    // `(x >> 27) << 2` keeps its low bits clear; `x >> 25` would not.
    assert!(!text.contains("%x, 25"), "{text}");
    assert!(!text.contains("lshr exact i32 %x, 27"), "{text}");
}

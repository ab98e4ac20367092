//! Loads ahead of the stores LLVM knows they cannot touch
//! (`tuning::move_loads_first`): ptxas keeps a global load behind a global
//! store to another pointer, so the unrolled checked copy of a sweep
//! without restrict waited for each load in turn.

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::tuning::move_loads_first;

/// Each function stores through `d`, then loads through its other pointer;
/// `@llvm.nvvm.membar.gl` is a fence.
const BLOCKS: &str = r#"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @llvm.nvvm.membar.gl()

define ptx_kernel void @scoped(ptr %d, ptr %u, i64 %j) {
  %dp = getelementptr i32, ptr %d, i64 %j
  store i32 1, ptr %dp, align 4, !alias.scope !3, !noalias !4
  %up = getelementptr i32, ptr %u, i64 %j
  %moved = load i32, ptr %up, align 4, !alias.scope !4, !noalias !3
  store i32 %moved, ptr %dp, align 4, !alias.scope !3, !noalias !4
  ret void
}

define ptx_kernel void @restrict_args(ptr noalias %d, ptr noalias %u, i64 %j) {
  %dp = getelementptr i32, ptr %d, i64 %j
  store i32 1, ptr %dp, align 4
  %up = getelementptr i32, ptr %u, i64 %j
  %moved = load i32, ptr %up, align 4
  store i32 %moved, ptr %dp, align 4
  ret void
}

define ptx_kernel void @may_alias(ptr %d, ptr %u, i64 %j) {
  %dp = getelementptr i32, ptr %d, i64 %j
  store i32 1, ptr %dp, align 4
  %up = getelementptr i32, ptr %u, i64 %j
  %kept = load i32, ptr %up, align 4
  store i32 %kept, ptr %dp, align 4
  ret void
}

define ptx_kernel void @fenced(ptr %d, ptr %u, i64 %j) {
  %dp = getelementptr i32, ptr %d, i64 %j
  store i32 1, ptr %dp, align 4, !alias.scope !3, !noalias !4
  call void @llvm.nvvm.membar.gl()
  %up = getelementptr i32, ptr %u, i64 %j
  %kept = load i32, ptr %up, align 4, !alias.scope !4, !noalias !3
  store i32 %kept, ptr %dp, align 4, !alias.scope !3, !noalias !4
  ret void
}

; The address from two values made after the store (each moved up
; shifts the other: the load once went in front of one of them, fuzz seed
; 712457).
define ptx_kernel void @two_operands(ptr noalias %d, ptr noalias %u, i64 %j) {
  %dp = getelementptr i32, ptr %d, i64 %j
  store i32 1, ptr %dp, align 4
  %row = getelementptr float, ptr %u, i64 %j
  %k = add i64 %j, 3
  %up = getelementptr float, ptr %row, i64 %k
  %moved = load i32, ptr %up, align 4
  store i32 %moved, ptr %dp, align 4
  ret void
}

!0 = distinct !{!0, !"LVerDomain"}
!1 = distinct !{!1, !0}
!2 = distinct !{!2, !0}
!3 = !{!1}
!4 = !{!2}
"#;

/// The module's text after the rewrite, and how many loads it moved.
fn rewritten() -> (String, usize) {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(BLOCKS.as_bytes(), "loads_first");
    let module = context.create_module_from_ir(buffer).unwrap();
    let moved = move_loads_first(&module);
    module.verify().unwrap();
    (module.print_to_string().to_string(), moved)
}

/// Whether, in `function`'s text, the load named `load` comes before the
/// first store.
fn load_first(text: &str, function: &str, load: &str) -> bool {
    let body = &text[text.find(&format!("@{function}(")).unwrap()..];
    let body = &body[..body.find("\n}").unwrap()];
    let at = |what: &str| {
        body.find(what)
            .unwrap_or_else(|| panic!("no `{what}` in {body}"))
    };
    at(&format!("%{load} = load")) < at("store i32 1")
}

#[test]
fn a_load_goes_ahead_of_a_store_kept_apart_by_scopes_or_restrict() {
    let (text, moved) = rewritten();
    assert!(load_first(&text, "scoped", "moved"), "{text}");
    assert!(load_first(&text, "restrict_args", "moved"), "{text}");
    assert!(load_first(&text, "two_operands", "moved"), "{text}");
    assert_eq!(moved, 3, "{text}");
}

#[test]
fn a_load_stays_behind_a_store_it_may_touch_or_a_fence() {
    let (text, _) = rewritten();
    assert!(!load_first(&text, "may_alias", "kept"), "{text}");
    assert!(!load_first(&text, "fenced", "kept"), "{text}");
}

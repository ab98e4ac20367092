//! Floating-point bits never reach a narrow store or call argument in the
//! register the floating-point operation wrote (`sl1_pass::ptxas_bugs`):
//! each shape below lowers to such a store without the workaround (the
//! check finds it) and to none with it. The shapes are those the
//! differential fuzzer met: a double's low byte stored (S-L1 builds of
//! seed 128610, where a peeled iteration folded `xor 0` away), a float's
//! low byte (seed 105364), a double's low word passed to a call (seed
//! 2007399), through a phi, and an under-aligned double (seed 400064).

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::targets::FileType;
use sl1_pass::ptxas_bugs::{keep_float_bits_out_of_narrow_stores, narrow_store_of_float};

mod common;
use common::nvptx_machine;

const HEAD: &str = r#"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @sink(i32)
"#;

const SHAPES: [(&str, &str); 5] = [
    (
        "double_low_byte",
        r#"define void @k(double %x, ptr %p, ptr %q) {
  %d = fadd double %x, 2.75
  store double %d, ptr %p, align 8
  %b = bitcast double %d to i64
  %t = trunc i64 %b to i8
  store i8 %t, ptr %q, align 1
  ret void
}"#,
    ),
    (
        "float_low_byte",
        r#"define void @k(float %x, ptr %q) {
  %f = fadd float %x, 1.75
  %b = bitcast float %f to i32
  %t = trunc i32 %b to i8
  store i8 %t, ptr %q, align 1
  ret void
}"#,
    ),
    (
        "double_low_word_to_a_call",
        r#"define void @k(double %x) {
  %d = fmul double %x, 3.0
  %b = bitcast double %d to i64
  %t = trunc i64 %b to i32
  call void @sink(i32 %t)
  ret void
}"#,
    ),
    (
        "through_a_phi",
        r#"define void @k(double %x, i1 %c, ptr %q) {
entry:
  %d = fadd double %x, 2.75
  %b = bitcast double %d to i64
  br i1 %c, label %then, label %join
then:
  %e = fmul double %x, 3.0
  %f = bitcast double %e to i64
  br label %join
join:
  %v = phi i64 [ %b, %entry ], [ %f, %then ]
  %t = trunc i64 %v to i16
  store i16 %t, ptr %q, align 2
  ret void
}"#,
    ),
    (
        "under_aligned_double",
        r#"define void @k(double %x, ptr %p) {
  %d = fadd double %x, 2.75
  store double %d, ptr %p, align 4
  ret void
}"#,
    ),
];

/// The shape's PTX, with or without the workaround, and how many values
/// it guarded.
fn ptx(name: &str, body: &str, workaround: bool) -> (String, usize) {
    let context = Context::create();
    let text = format!("{HEAD}\n{body}\n");
    let buffer = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), name);
    let module = context.create_module_from_ir(buffer).unwrap();
    let guarded = if workaround {
        keep_float_bits_out_of_narrow_stores(&module)
    } else {
        0
    };
    module.verify().unwrap();
    let out = nvptx_machine()
        .write_to_memory_buffer(&module, FileType::Assembly)
        .unwrap();
    (
        String::from_utf8_lossy(out.as_slice()).into_owned(),
        guarded,
    )
}

#[test]
fn without_the_workaround_each_shape_meets_the_bug() {
    let met: Vec<&str> = SHAPES
        .iter()
        .filter(|(name, body)| narrow_store_of_float(&ptx(name, body, false).0).is_some())
        .map(|(name, _)| *name)
        .collect();
    // LLVM 19's NVPTX keeps floats in registers of their own and moves
    // them to integer registers first; the call argument it also cuts with
    // `cvt.u32.u64`, an integer operation.
    let expected: Vec<&str> = SHAPES
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !cfg!(feature = "llvm19") || *name != "double_low_word_to_a_call")
        .collect();
    assert_eq!(met, expected);
}

#[test]
fn with_it_no_narrow_store_takes_a_float_register() {
    for (name, body) in SHAPES {
        let (text, guarded) = ptx(name, body, true);
        assert_eq!(narrow_store_of_float(&text), None, "{name}:\n{text}");
        let expected = if name == "through_a_phi" { 2 } else { 1 };
        assert_eq!(guarded, expected, "{name}");
        assert!(text.contains("xor.b"), "{name}:\n{text}");
    }
}

#[test]
fn whole_values_wide_uses_and_shuffled_halves_stay_as_they_are() {
    // A double's halves through a warp shuffle (what `__shfl_down_sync` of
    // a double is): the cut is an integer instruction of its own.
    let body = r#"declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
define void @k(double %x, ptr %p, ptr %q) {
  %d = fadd double %x, 2.75
  store double %d, ptr %p, align 8
  %b = bitcast double %d to i64
  %s = lshr i64 %b, 63
  store i64 %s, ptr %q, align 8
  %lo = trunc i64 %b to i32
  %m = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %lo, i32 1, i32 31)
  %w = zext i32 %m to i64
  %r = getelementptr i8, ptr %q, i64 8
  store i64 %w, ptr %r, align 8
  ret void
}"#;
    let (text, guarded) = ptx("whole", body, true);
    assert_eq!(guarded, 0);
    assert!(!text.contains("xor.b"), "{text}");
    assert_eq!(narrow_store_of_float(&text), None, "{text}");
}

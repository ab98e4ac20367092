//! An atomic load through a `noalias readonly` kernel argument: NVPTX
//! would read it with `ld.global.nc`, which has no atomic form, and stops
//! in instruction selection (LLVM 19 and 22). `sl1_pass::nvptx_bugs` takes
//! `readonly` off such arguments; the module then lowers to an atomic load
//! of coherent memory. (Without the workaround the lowering aborts the
//! process, so only the shapes with it are lowered here.)

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::targets::FileType;
use sl1_pass::nvptx_bugs::keep_atomic_loads_coherent;

mod common;
use common::nvptx_machine;

const MODULE: &str = r#"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @spin(ptr noalias readonly %flag, ptr noalias readonly %in, ptr noalias %out, i1 %c) {
entry:
  %which = select i1 %c, ptr %flag, ptr %in
  br label %wait

wait:
  %f = load atomic i32, ptr %flag monotonic, align 4
  %g = load atomic i32, ptr %which monotonic, align 4
  %v = load i32, ptr %in, align 4
  %s = add i32 %f, %g
  %t = add i32 %s, %v
  store i32 %t, ptr %out, align 4
  %zero = icmp eq i32 %f, 0
  br i1 %zero, label %wait, label %done

done:
  ret void
}

define void @device_function(ptr noalias readonly %p, ptr %q) {
  %v = load atomic i32, ptr %p monotonic, align 4
  store i32 %v, ptr %q, align 4
  ret void
}
"#;

fn readonly_params(function: inkwell::values::FunctionValue<'_>) -> Vec<u32> {
    let readonly = Attribute::get_named_enum_kind_id("readonly");
    (0..function.count_params())
        .filter(|&i| {
            function
                .get_enum_attribute(AttributeLoc::Param(i), readonly)
                .is_some()
        })
        .collect()
}

#[test]
fn arguments_read_atomically_lose_readonly_and_lower_to_atomic_loads() {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(MODULE.as_bytes(), "spin");
    let module = context.create_module_from_ir(buffer).unwrap();
    let spin = module.get_function("spin").unwrap();
    assert_eq!(readonly_params(spin), [0, 1]);

    // `flag` is read atomically, and so is `in` through the select; kernels
    // only (NVPTX reads a device function's arguments through generic
    // loads).
    assert_eq!(keep_atomic_loads_coherent(&module), 2);
    assert_eq!(readonly_params(spin), Vec::<u32>::new());
    let device = module.get_function("device_function").unwrap();
    assert_eq!(readonly_params(device), [0]);
    module.verify().unwrap();

    let ptx = nvptx_machine()
        .write_to_memory_buffer(&module, FileType::Assembly)
        .unwrap();
    let ptx = String::from_utf8_lossy(ptx.as_slice());
    assert!(!ptx.contains(".nc"), "{ptx}");
    let atomic = if cfg!(feature = "llvm19") {
        // LLVM 19 lowers atomic loads to volatile ones (and selects no
        // acquire load: monotonic ones here).
        "ld.volatile.global"
    } else {
        "ld.relaxed.sys.global"
    };
    assert!(ptx.contains(atomic), "{ptx}");
    // Once is enough: nothing is left to change.
    assert_eq!(keep_atomic_loads_coherent(&module), 0);
}

#[test]
fn arguments_read_plainly_keep_readonly() {
    let context = Context::create();
    let text = MODULE.replace(
        "load atomic i32, ptr %flag monotonic",
        "load i32, ptr %flag",
    );
    let text = text.replace(
        "load atomic i32, ptr %which monotonic",
        "load i32, ptr %which",
    );
    let buffer = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "plain");
    let module = context.create_module_from_ir(buffer).unwrap();
    assert_eq!(keep_atomic_loads_coherent(&module), 0);
    let spin = module.get_function("spin").unwrap();
    assert_eq!(readonly_params(spin), [0, 1]);
}

//! The host side of launch-sized line buffers (`Options::launch_sized`):
//! every kernel launch the host compile sees gives the kernel's line buffer
//! the dynamic shared memory its block needs (`LaunchBytes`, from the device
//! compile's report).
//!
//! clang lowers `k<<<grid, block, shared, stream>>>(...)` to a call of the
//! kernel's stub, which calls `cudaLaunchKernel(handle, grid, block, args,
//! shared, stream)`; the module's constructor registers each handle with the
//! device name of its kernel (`__cudaRegisterFunction(fatbin, handle, name,
//! ...)`). Each `cudaLaunchKernel` call whose handle is registered for a
//! kernel with a launch-sized buffer gives at least `min(per_thread *
//! block.x * block.y * block.z, most)` bytes: such a kernel has no dynamic
//! shared memory of its own, so what a launch gave it anyway counts, and a
//! launch never asks for more than `most` unless it did before. A launch this does not see (through
//! a function pointer, from another file) gives the buffer nothing more, and
//! the kernel caches for as many threads as what it gets holds: none when it
//! gets nothing.

use std::collections::BTreeMap;

use inkwell::module::Module;
use inkwell::values::{AsValueRef, BasicValueEnum};
use inkwell::IntPredicate;

use crate::report::Report;
use crate::transform::LaunchBytes;

/// The launch calls of the CUDA runtime clang's stubs use (the second with
/// `--default-stream per-thread`). Arguments on x86-64: the handle, the
/// grid as (x | y << 32, z), the block likewise, the argument array, the
/// dynamic shared bytes and the stream.
const LAUNCH_CALLS: [&str; 2] = ["cudaLaunchKernel", "cudaLaunchKernel_ptsz"];
const BLOCK_XY: u32 = 3;
const BLOCK_Z: u32 = 4;
const SHARED_BYTES: u32 = 6;

/// What `size_launches` did to a host module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SizedLaunches {
    /// Launch calls given their kernel's buffer bytes, per kernel (device
    /// name).
    pub sized: BTreeMap<String, usize>,
    /// Launch calls of a launch-sized kernel left as they were, with why.
    pub skipped: Vec<String>,
}

/// The launch bytes of every launch-sized kernel of a device report.
pub fn launch_bytes(report: &Report) -> BTreeMap<String, LaunchBytes> {
    report
        .kernels
        .iter()
        .filter_map(|k| k.transform.launch_bytes.map(|b| (k.name.clone(), b)))
        .collect()
}

/// Adds each launch-sized kernel's buffer bytes to its launches in `module`.
pub fn size_launches(module: &Module<'_>, bytes: &BTreeMap<String, LaunchBytes>) -> SizedLaunches {
    let mut done = SizedLaunches::default();
    if bytes.is_empty() {
        return done;
    }
    let kernels = registered_kernels(module);
    let builder = module.get_context().create_builder();
    for name in LAUNCH_CALLS {
        let Some(launch) = module.get_function(name) else {
            continue;
        };
        for call in crate::llvm::edit::calls_to(launch) {
            let Some(kernel) = call
                .get_operand(0)
                .and_then(|o| o.value())
                .and_then(|handle| kernels.get(&handle.as_value_ref()))
            else {
                continue;
            };
            let Some(b) = bytes.get(kernel) else {
                continue;
            };
            let operand = |i| call.get_operand(i).and_then(|o| o.value());
            let (Some(BasicValueEnum::IntValue(xy)), Some(BasicValueEnum::IntValue(z))) =
                (operand(BLOCK_XY), operand(BLOCK_Z))
            else {
                done.skipped
                    .push(format!("{kernel}: a `{name}` call of another form"));
                continue;
            };
            let Some(BasicValueEnum::IntValue(shared)) = operand(SHARED_BYTES) else {
                done.skipped
                    .push(format!("{kernel}: a `{name}` call of another form"));
                continue;
            };
            let (i64t, i32t) = (xy.get_type(), z.get_type());
            if i64t.get_bit_width() != 64
                || i32t.get_bit_width() != 32
                || shared.get_type().get_bit_width() != 64
            {
                done.skipped
                    .push(format!("{kernel}: a `{name}` call of another form"));
                continue;
            }
            builder.position_before(&call);
            let built = (|| {
                let x = builder.build_and(xy, i64t.const_int(0xffff_ffff, false), "sl1.block.x")?;
                let y = builder.build_right_shift(
                    xy,
                    i64t.const_int(32, false),
                    false,
                    "sl1.block.y",
                )?;
                let z = builder.build_int_z_extend(z, i64t, "sl1.block.z")?;
                let threads =
                    builder.build_int_mul(builder.build_int_mul(x, y, "")?, z, "sl1.threads")?;
                let want =
                    builder.build_int_mul(threads, i64t.const_int(b.per_thread, false), "")?;
                let most = i64t.const_int(b.most, false);
                let less = builder.build_int_compare(IntPredicate::ULT, want, most, "")?;
                let lines = builder.build_select(less, want, most, "sl1.line.bytes")?;
                // The kernel uses no dynamic shared memory of its own: the
                // buffer may take what the launch gives anyway.
                let lines = lines.into_int_value();
                let more = builder.build_int_compare(IntPredicate::UGT, lines, shared, "")?;
                builder
                    .build_select(more, lines, shared, "sl1.shared")
                    .map(|v| v.into_int_value())
            })();
            match built {
                Ok(total) => {
                    call.set_operand(SHARED_BYTES, total);
                    *done.sized.entry(kernel.clone()).or_default() += 1;
                }
                Err(e) => done.skipped.push(format!("{kernel}: {e}")),
            }
        }
    }
    done
}

/// Host handle -> device name, from the module's `__cudaRegisterFunction`
/// calls (handle: argument 1; the name: argument 2, a string constant).
fn registered_kernels(
    module: &Module<'_>,
) -> BTreeMap<inkwell::llvm_sys::prelude::LLVMValueRef, String> {
    let mut kernels = BTreeMap::new();
    let Some(register) = module.get_function("__cudaRegisterFunction") else {
        return kernels;
    };
    for call in crate::llvm::edit::calls_to(register) {
        let operand = |i| call.get_operand(i).and_then(|o| o.value());
        let (Some(handle), Some(BasicValueEnum::PointerValue(name))) = (operand(1), operand(2))
        else {
            continue;
        };
        let Some(global) = module.get_globals().find(|g| g.as_pointer_value() == name) else {
            continue;
        };
        let Some(BasicValueEnum::ArrayValue(text)) = global.get_initializer() else {
            continue;
        };
        if let Some(bytes) = text.as_const_string() {
            let name = bytes.strip_suffix(&[0]).unwrap_or(bytes);
            kernels.insert(
                handle.as_value_ref(),
                String::from_utf8_lossy(name).into_owned(),
            );
        }
    }
    kernels
}

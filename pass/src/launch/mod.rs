//! The host side of launch-sized line buffers (`Options::launch_sized`):
//! every kernel launch the host compile sees gives the kernel's line buffer
//! the dynamic shared memory its block needs (`LaunchBytes`, from the device
//! compile's report). A launch is a `call`, or an `invoke` where the stub
//! was inlined into a function with C++ objects to destroy (a `main` with a
//! `std::vector`).
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
//!
//! Every launch of a kernel with lines, launch-sized or static, also asks
//! for the carveout its resident blocks need (`carveout`), unless the
//! program sets carveouts itself (`cudaFuncSetAttribute` with
//! `cudaFuncAttributePreferredSharedMemoryCarveout`).

mod carveout;
mod ir;
mod sizer;

use std::collections::BTreeMap;

use inkwell::builder::BuilderError;
use inkwell::module::Module;
use inkwell::values::BasicValueEnum;

use crate::llvm::ir::Value;

use crate::report::Report;
use crate::transform::LaunchBytes;

/// The launch calls of the CUDA runtime clang's stubs use (the second with
/// `--default-stream per-thread`). Arguments on x86-64: the handle, the
/// grid as (x | y << 32, z), the block likewise, the argument array, the
/// dynamic shared bytes and the stream.
const LAUNCH_CALLS: [&str; 2] = ["cudaLaunchKernel", "cudaLaunchKernel_ptsz"];
const HANDLE: u32 = 0;
const GRID_XY: u32 = 1;
const GRID_Z: u32 = 2;
const BLOCK_XY: u32 = 3;
const BLOCK_Z: u32 = 4;
const SHARED_BYTES: u32 = 6;

/// Launch paths that pass by the CUDA runtime's launch functions, which
/// the S-L1 runtime wraps: a kernel with lines launched through one gets no
/// line buffer (the driver API, graph nodes made by hand).
const UNSIZED_LAUNCHES: [&str; 8] = [
    "cuLaunchKernel",
    "cuLaunchKernelEx",
    "cuLaunchCooperativeKernel",
    "cudaGraphAddKernelNode",
    "cudaGraphAddKernelNode_v2",
    "cudaGraphKernelNodeSetParams",
    "cudaGraphExecKernelNodeSetParams",
    "cudaGraphAddNode",
];

/// Where `call` is, for a warning: its line with debug information, else
/// its function.
fn call_site(call: &inkwell::values::InstructionValue<'_>) -> String {
    if let Some(at) = crate::llvm::ir::Value::of(*call).debug_location() {
        return at.to_string();
    }
    call.get_parent()
        .and_then(|b| b.get_parent())
        .map(|f| format!("function `{}`", f.get_name().to_string_lossy()))
        .unwrap_or_else(|| "an unknown function".into())
}

/// A warning for every call of `UNSIZED_LAUNCHES` in `module`.
fn unsized_launches(module: &Module<'_>) -> Vec<String> {
    let mut found = Vec::new();
    for name in UNSIZED_LAUNCHES {
        let Some(f) = module.get_function(name) else {
            continue;
        };
        for call in crate::llvm::edit::calls_to(f) {
            found.push(format!(
                "`{name}` at {}: a kernel with lines launched through it gets no line buffer \
                 and caches nothing; launch it with <<<>>>, cudaLaunchKernel or \
                 cudaLaunchKernelEx (a stream captured into a graph keeps their bytes)",
                call_site(&call)
            ));
        }
    }
    found
}

/// What `size_launches` did to a host module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SizedLaunches {
    /// Launch calls given their kernel's buffer bytes, per kernel (device
    /// name).
    pub sized: BTreeMap<String, usize>,
    /// Launch calls that ask for their carveout first, per kernel.
    pub carveouts: BTreeMap<String, usize>,
    /// Launch calls of a kernel with lines left as they were, with why.
    pub skipped: Vec<String>,
    /// Launch calls through a handle known only when the program runs,
    /// given to the module's sizer.
    pub through_pointers: usize,
    /// Kernels with lines the module registers with the S-L1 runtime.
    pub registered: usize,
}

/// What the host compile needs of a kernel with lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostKernel {
    /// The launch-sized buffer's bytes; `None` for a static buffer.
    pub sized: Option<LaunchBytes>,
    /// The kernel's static shared memory: its own, and a static buffer.
    pub static_bytes: u64,
}

/// The launch bytes of every launch-sized kernel of a device report.
pub fn launch_bytes(report: &Report) -> BTreeMap<String, LaunchBytes> {
    report
        .kernels
        .iter()
        .filter_map(|k| k.transform.launch_bytes.map(|b| (k.name.clone(), b)))
        .collect()
}

/// Every kernel of a device report that has lines.
pub fn host_kernels(report: &Report) -> BTreeMap<String, HostKernel> {
    report
        .kernels
        .iter()
        .filter(|k| k.transform.applied)
        .map(|k| {
            let t = &k.transform;
            let buffer = if t.launch_bytes.is_some() {
                0
            } else {
                t.shared_bytes
            };
            let kernel = HostKernel {
                sized: t.launch_bytes,
                static_bytes: t.kernel_shared_bytes + buffer,
            };
            (k.name.clone(), kernel)
        })
        .collect()
}

/// Whether the module sets a kernel's carveout itself.
fn sets_carveouts(module: &Module<'_>) -> bool {
    module
        .get_function(carveout::SET_ATTRIBUTE)
        .is_some_and(|set| {
            crate::llvm::edit::calls_to(set).iter().any(|call| {
                match call.get_operand(1).and_then(|o| o.value()) {
                    Some(BasicValueEnum::IntValue(attr)) => attr
                        .get_zero_extended_constant()
                        .is_none_or(|a| a == carveout::PREFERRED_CARVEOUT),
                    _ => true,
                }
            })
        })
}

/// Adds each launch-sized kernel's buffer bytes to its launches in
/// `module`, and has every launch of a kernel with lines ask for its
/// carveout first.
pub fn size_launches(module: &Module<'_>, kernels: &BTreeMap<String, HostKernel>) -> SizedLaunches {
    let mut done = SizedLaunches::default();
    if kernels.is_empty() {
        return done;
    }
    done.skipped.extend(unsized_launches(module));
    let handles = registered_kernels(module);
    let fit = if sets_carveouts(module) {
        done.skipped
            .push("the program sets carveouts itself: the launches keep them".into());
        None
    } else {
        match carveout::fit_function(module) {
            Ok(f) => Some(f),
            Err(why) => {
                done.skipped.push(format!("no carveouts: {why}"));
                None
            }
        }
    };
    // The module's kernels with lines, in registration order.
    let module_kernels: Vec<sizer::ModuleKernel<'_, '_>> = handles
        .iter()
        .filter_map(|(handle, name)| {
            kernels.get(name).map(|k| sizer::ModuleKernel {
                handle: *handle,
                name: name.as_str(),
                sized: k.sized,
                static_bytes: k.static_bytes,
            })
        })
        .collect();
    if module_kernels.is_empty() {
        return done;
    }
    let sizer = match sizer::build(module, &module_kernels, fit)
        .and_then(|f| sizer::register(module, f, &module_kernels).map(|()| f))
    {
        Ok(f) => f,
        Err(e) => {
            done.skipped.push(format!("no launch sizer: {e}"));
            return done;
        }
    };
    done.registered = module_kernels.len();
    let builder = module.get_context().create_builder();
    for name in LAUNCH_CALLS {
        let Some(launch) = module.get_function(name) else {
            continue;
        };
        for call in crate::llvm::edit::calls_to(launch) {
            let operand = |i| call.get_operand(i).and_then(|o| o.value());
            let Some(handle) = operand(HANDLE) else {
                continue;
            };
            // A kernel registered here, with lines; a handle not known
            // before the program runs (a function pointer); or another
            // module's kernel, which its own sizer serves through the
            // runtime's wrappers.
            let kernel = handles
                .iter()
                .find(|(h, _)| Value::of(*h) == Value::of(handle))
                .map(|(_, name)| name);
            let through_pointer = kernel.is_none() && !Value::of(handle).is_constant();
            let label = match kernel {
                Some(k) if kernels.contains_key(k) => k.clone(),
                None if through_pointer => "a kernel through a pointer".to_string(),
                _ => continue,
            };
            let (
                Some(BasicValueEnum::PointerValue(handle)),
                Some(BasicValueEnum::IntValue(grid_xy)),
                Some(BasicValueEnum::IntValue(grid_z)),
                Some(BasicValueEnum::IntValue(xy)),
                Some(BasicValueEnum::IntValue(z)),
                Some(BasicValueEnum::IntValue(shared)),
            ) = (
                operand(HANDLE),
                operand(GRID_XY),
                operand(GRID_Z),
                operand(BLOCK_XY),
                operand(BLOCK_Z),
                operand(SHARED_BYTES),
            )
            else {
                done.skipped
                    .push(format!("{label}: a `{name}` call of another form"));
                continue;
            };
            if xy.get_type().get_bit_width() != 64
                || z.get_type().get_bit_width() != 32
                || grid_xy.get_type().get_bit_width() != 64
                || grid_z.get_type().get_bit_width() != 32
                || shared.get_type().get_bit_width() != 64
            {
                done.skipped
                    .push(format!("{label}: a `{name}` call of another form"));
                continue;
            }
            builder.position_before(&call);
            let built = (|| {
                let args = [
                    handle.into(),
                    grid_xy.into(),
                    grid_z.into(),
                    xy.into(),
                    z.into(),
                    shared.into(),
                ];
                let sized = builder
                    .build_call(sizer, &args, "sl1.shared")?
                    .try_as_basic_value()
                    .basic()
                    .expect("the sizer returns an i64")
                    .into_int_value();
                if !through_pointer {
                    return Ok::<_, BuilderError>(sized);
                }
                // -1: not a kernel of this module.
                let other = builder.build_int_compare(
                    inkwell::IntPredicate::SLT,
                    sized,
                    sized.get_type().const_zero(),
                    "",
                )?;
                Ok(builder
                    .build_select(other, shared, sized, "")?
                    .into_int_value())
            })();
            match built {
                Ok(total) => {
                    call.set_operand(SHARED_BYTES, total);
                    if through_pointer {
                        done.through_pointers += 1;
                        continue;
                    }
                    if kernels[&label].sized.is_some() {
                        *done.sized.entry(label.clone()).or_default() += 1;
                    }
                    if fit.is_some() {
                        *done.carveouts.entry(label).or_default() += 1;
                    }
                }
                Err(e) => done.skipped.push(format!("{label}: {e}")),
            }
        }
    }
    done
}

/// The kernels the module registers, as (host handle, device name), in
/// the order of its `__cudaRegisterFunction` calls (handle: argument 1; the
/// name: argument 2, a string constant).
fn registered_kernels<'ctx>(
    module: &Module<'ctx>,
) -> Vec<(inkwell::values::PointerValue<'ctx>, String)> {
    let mut kernels = Vec::new();
    let Some(register) = module.get_function("__cudaRegisterFunction") else {
        return kernels;
    };
    for call in crate::llvm::edit::calls_to(register) {
        let operand = |i| call.get_operand(i).and_then(|o| o.value());
        let (Some(BasicValueEnum::PointerValue(handle)), Some(BasicValueEnum::PointerValue(name))) =
            (operand(1), operand(2))
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
            kernels.push((handle, String::from_utf8_lossy(name).into_owned()));
        }
    }
    kernels
}

//! The host side of `sl1_core::carveout`: before each launch of a kernel
//! with lines, the host module calls `sl1.fit_carveout`, a function this
//! adds to it once, which asks the CUDA runtime for the device's SMs and
//! shared memory and for the blocks of the launch that fit an SM, and sets
//! the kernel's preferred carveout to what the launch's resident blocks
//! need. A runtime call that fails leaves the facts it would give at their
//! defaults (no SMs, 32 resident blocks), which give the driver's own split.

use inkwell::builder::{Builder, BuilderError};
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicMetadataTypeEnum, FunctionType};
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};
use inkwell::IntPredicate;

use sl1_core::carveout::{DRIVER_SPLIT, RESERVED_PER_BLOCK};

use super::ir::{dim3_count, umax, umin};

/// The helper's name in the host module.
pub const FIT_CARVEOUT: &str = "sl1.fit_carveout";

/// `cudaFuncAttributePreferredSharedMemoryCarveout`.
pub const PREFERRED_CARVEOUT: u64 = 9;
/// `cudaSharedmemCarveoutDefault`.
const DEFAULT_CARVEOUT: u64 = DRIVER_SPLIT as i64 as u64;
/// `cudaDevAttrMultiProcessorCount`.
const MULTIPROCESSOR_COUNT: u64 = 16;
/// `cudaDevAttrMaxSharedMemoryPerMultiprocessor`.
const SHARED_PER_SM: u64 = 81;
/// The most blocks an SM holds on any GPU: what the occupancy query
/// stands for when it fails.
const MOST_BLOCKS: u64 = 32;

pub const SET_ATTRIBUTE: &str = "cudaFuncSetAttribute";
const GET_DEVICE: &str = "cudaGetDevice";
const DEVICE_ATTRIBUTE: &str = "cudaDeviceGetAttribute";
const OCCUPANCY: &str = "cudaOccupancyMaxActiveBlocksPerMultiprocessor";

/// `sl1.fit_carveout(handle, grid_xy, grid_z, threads, dynamic, static,
/// cache)`: the launch's kernel handle, its grid as `cudaLaunchKernel`
/// takes it, its block's threads (i64), the dynamic shared bytes it gives
/// (i64), the kernel's static shared bytes (i64) and the kernel's
/// `cache_for`: a launch of the shape the kernel's last launch had on the
/// same device asks the runtime nothing more. Added on first use; an error
/// when a CUDA function it calls is already declared with another type.
pub fn fit_function<'ctx>(module: &Module<'ctx>) -> Result<FunctionValue<'ctx>, String> {
    if let Some(f) = module.get_function(FIT_CARVEOUT) {
        return Ok(f);
    }
    let ctx = module.get_context();
    let (i32t, i64t, ptr) = (
        ctx.i32_type(),
        ctx.i64_type(),
        ctx.ptr_type(inkwell::AddressSpace::default()),
    );
    let runtime = |name: &str, params: &[BasicMetadataTypeEnum<'ctx>]| {
        declared(module, name, i32t.fn_type(params, false))
    };
    let calls = Runtime {
        get_device: runtime(GET_DEVICE, &[ptr.into()])?,
        device_attribute: runtime(DEVICE_ATTRIBUTE, &[ptr.into(), i32t.into(), i32t.into()])?,
        set_attribute: runtime(SET_ATTRIBUTE, &[ptr.into(), i32t.into(), i32t.into()])?,
        occupancy: runtime(
            OCCUPANCY,
            &[ptr.into(), ptr.into(), i32t.into(), i64t.into()],
        )?,
    };
    let params = [
        ptr.into(),
        i64t.into(),
        i32t.into(),
        i64t.into(),
        i64t.into(),
        i64t.into(),
        ptr.into(),
    ];
    let f = module.add_function(
        FIT_CARVEOUT,
        ctx.void_type().fn_type(&params, false),
        Some(Linkage::Internal),
    );
    let b = ctx.create_builder();
    b.position_at_end(ctx.append_basic_block(f, "entry"));
    emit_body(&b, f, &calls).map_err(|e| format!("building {FIT_CARVEOUT}: {e}"))?;
    Ok(f)
}

/// Words of a kernel's launch-shape cache (`cache_for`).
const CACHE_WORDS: u32 = 5;

/// The cache of `kernel`'s last launch shape that `sl1.fit_carveout`
/// takes: a zeroed global of the host module, added on first use. Threads
/// that launch the kernel at once may see each other's words; a shape
/// taken for the same then keeps another launch's carveout, a matter of
/// speed only.
pub fn cache_for<'ctx>(module: &Module<'ctx>, kernel: &str) -> PointerValue<'ctx> {
    let name = format!("sl1.carveout.{kernel}");
    if let Some(g) = module.get_global(&name) {
        return g.as_pointer_value();
    }
    let ty = module.get_context().i64_type().array_type(CACHE_WORDS);
    let g = module.add_global(ty, None, &name);
    g.set_linkage(Linkage::Internal);
    g.set_initializer(&ty.const_zero());
    g.as_pointer_value()
}

/// The address of word `k` (below `CACHE_WORDS`) of `cache`.
fn word<'ctx>(
    b: &Builder<'ctx>,
    i64t: inkwell::types::IntType<'ctx>,
    cache: PointerValue<'ctx>,
    k: u64,
) -> Result<PointerValue<'ctx>, BuilderError> {
    debug_assert!(k < u64::from(CACHE_WORDS));
    crate::llvm::build::inkwell_gep(b, i64t, cache, &[i64t.const_int(k, false)], "")
}

/// The CUDA runtime functions the helper calls.
struct Runtime<'ctx> {
    get_device: FunctionValue<'ctx>,
    device_attribute: FunctionValue<'ctx>,
    set_attribute: FunctionValue<'ctx>,
    occupancy: FunctionValue<'ctx>,
}

/// `name` in `module` with type `ty`: declared when absent.
fn declared<'ctx>(
    module: &Module<'ctx>,
    name: &str,
    ty: FunctionType<'ctx>,
) -> Result<FunctionValue<'ctx>, String> {
    match module.get_function(name) {
        Some(f) if f.get_type() == ty => Ok(f),
        Some(_) => Err(format!("`{name}` is declared with another type")),
        None => Ok(module.add_function(name, ty, Some(Linkage::External))),
    }
}

fn emit_body<'ctx>(
    b: &Builder<'ctx>,
    f: FunctionValue<'ctx>,
    rt: &Runtime<'ctx>,
) -> Result<(), BuilderError> {
    let ctx = f.get_type().get_context();
    let (i32t, i64t) = (ctx.i32_type(), ctx.i64_type());
    let param = |i| f.get_nth_param(i).expect("sl1.fit_carveout's parameters");
    let handle = param(0).into_pointer_value();
    let (grid_xy, grid_z) = (param(1).into_int_value(), param(2).into_int_value());
    let (threads, dynamic, fixed) = (
        param(3).into_int_value(),
        param(4).into_int_value(),
        param(5).into_int_value(),
    );
    let cache = param(6).into_pointer_value();
    let slot = |init: u64, name: &str| -> Result<PointerValue<'ctx>, BuilderError> {
        let p = b.build_alloca(i32t, name)?;
        b.build_store(p, i32t.const_int(init, false))?;
        Ok(p)
    };
    let (device, sms, per_sm, most) = (
        slot(0, "device")?,
        slot(0, "sms")?,
        slot(0, "shared.per.sm")?,
        slot(MOST_BLOCKS, "most.resident")?,
    );
    let int32 = |v: u64| BasicValueEnum::from(i32t.const_int(v, false)).into();
    b.build_call(rt.get_device, &[device.into()], "")?;
    let dev = b.build_load(i32t, device, "")?;
    // The kernel's last launch shape (device + 1, grid words, threads,
    // dynamic bytes): the same again keeps the carveout it set.
    let c = |v: u64| i64t.const_int(v, false);
    let dev64 = b.build_int_z_extend(dev.into_int_value(), i64t, "")?;
    let key = [
        b.build_int_add(dev64, c(1), "")?,
        grid_xy,
        b.build_int_z_extend(grid_z, i64t, "")?,
        threads,
        dynamic,
    ];
    let mut same = ctx.bool_type().const_int(1, false);
    for (k, v) in key.iter().enumerate() {
        let at = word(b, i64t, cache, k as u64)?;
        let old = b.build_load(i64t, at, "")?.into_int_value();
        let eq = b.build_int_compare(IntPredicate::EQ, old, *v, "")?;
        same = b.build_and(same, eq, "")?;
    }
    let set = ctx.append_basic_block(f, "set");
    let done = ctx.append_basic_block(f, "done");
    b.build_conditional_branch(same, done, set)?;
    b.position_at_end(done);
    b.build_return(None)?;
    b.position_at_end(set);
    for (k, v) in key.iter().enumerate() {
        let at = word(b, i64t, cache, k as u64)?;
        b.build_store(at, *v)?;
    }
    for (out, what) in [(sms, MULTIPROCESSOR_COUNT), (per_sm, SHARED_PER_SM)] {
        b.build_call(
            rt.device_attribute,
            &[out.into(), int32(what), dev.into()],
            "",
        )?;
    }
    // The occupancy calculator's answer at the driver's own split.
    let carveout = int32(PREFERRED_CARVEOUT);
    b.build_call(
        rt.set_attribute,
        &[handle.into(), carveout, int32(DEFAULT_CARVEOUT)],
        "",
    )?;
    let threads32 = b.build_int_truncate(threads, i32t, "")?;
    b.build_call(
        rt.occupancy,
        &[most.into(), handle.into(), threads32.into(), dynamic.into()],
        "",
    )?;
    let load64 = |p: PointerValue<'ctx>| -> Result<IntValue<'ctx>, BuilderError> {
        let v = b.build_load(i32t, p, "")?.into_int_value();
        b.build_int_z_extend(v, i64t, "")
    };
    let (sms, per_sm, most) = (load64(sms)?, load64(per_sm)?, load64(most)?);
    let grid = dim3_count(b, grid_xy, grid_z)?;
    let umin = |a, v| umin(b, a, v);
    let umax = |a, v| umax(b, a, v);
    let div_ceil = |a: IntValue<'ctx>, d: IntValue<'ctx>| -> Result<IntValue<'ctx>, BuilderError> {
        let d = umax(d, c(1))?;
        let up = b.build_int_add(a, b.build_int_sub(d, c(1), "")?, "")?;
        b.build_int_unsigned_div(up, d, "")
    };
    // As sl1_core::carveout::carveout_preference.
    let per_wave = div_ceil(grid, sms)?;
    // Fewer than `most` where the percentage is used (`fills` below).
    let blocks = umax(per_wave, c(1))?;
    let block = b.build_int_add(
        b.build_int_add(fixed, dynamic, "")?,
        c(RESERVED_PER_BLOCK),
        "",
    )?;
    let need = b.build_int_mul(blocks, block, "need")?;
    let percent = umin(
        div_ceil(b.build_int_mul(need, c(100), "")?, per_sm)?,
        c(100),
    )?;
    // Missing facts, or a grid that fills every slot: the driver's split.
    let unknown = b.build_or(
        b.build_int_compare(IntPredicate::EQ, sms, c(0), "")?,
        b.build_int_compare(IntPredicate::EQ, per_sm, c(0), "")?,
        "",
    )?;
    let fills = b.build_int_compare(IntPredicate::UGE, per_wave, most, "fills")?;
    let percent = b
        .build_select(
            b.build_or(unknown, fills, "")?,
            c(DEFAULT_CARVEOUT),
            percent,
            "",
        )?
        .into_int_value();
    let percent = b.build_int_truncate(percent, i32t, "carveout")?;
    b.build_call(
        rt.set_attribute,
        &[handle.into(), carveout, percent.into()],
        "",
    )?;
    b.build_return(None)?;
    Ok(())
}

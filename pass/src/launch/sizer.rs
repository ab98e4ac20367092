//! One function per host module that sizes a launch of any of the module's
//! kernels with lines: `sl1.size_launch(handle, grid_xy, grid_z, block_xy,
//! block_z, shared) -> i64` gives the dynamic shared bytes the launch must
//! ask for (and has it ask for its carveout first), or -1 for a handle that
//! is not one of them. The module's launches call it, and a constructor
//! registers it, with the kernels' handles and names, with the S-L1
//! runtime (`sl1_register_launch_sizer`), whose link-time wrappers of the
//! CUDA runtime's launch functions call it for launches made anywhere in
//! the program: another file, a function pointer, `cudaLaunchKernelEx`, a
//! cooperative launch. A program linked without the runtime (its own link
//! line) finds the registration function null (`extern_weak`) and keeps
//! the sizing of the launches in the kernels' own files.

use inkwell::builder::BuilderError;
use inkwell::module::{Linkage, Module};
use inkwell::values::{FunctionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};

use super::carveout;
use super::ir::{dim3_count, umax, umin};
use crate::transform::LaunchBytes;

/// The sizer's name in the host module.
pub const SIZER: &str = "sl1.size_launch";
/// The S-L1 runtime's registration function (`driver/runtime/launches.c`).
pub const REGISTER: &str = "sl1_register_launch_sizer";
/// The constructor that calls it.
const REGISTER_CTOR: &str = "sl1.register_launches";

/// A kernel with lines registered in the module: its handle (the stub) and
/// device name.
pub struct ModuleKernel<'ctx, 'k> {
    pub handle: PointerValue<'ctx>,
    pub name: &'k str,
    /// The launch-sized buffer's bytes; `None` for a static buffer.
    pub sized: Option<LaunchBytes>,
    /// The kernel's static shared memory.
    pub static_bytes: u64,
}

/// Builds the module's sizer for `kernels`; `fit` sets carveouts.
pub fn build<'ctx>(
    module: &Module<'ctx>,
    kernels: &[ModuleKernel<'ctx, '_>],
    fit: Option<FunctionValue<'ctx>>,
) -> Result<FunctionValue<'ctx>, BuilderError> {
    let ctx = module.get_context();
    let (i32t, i64t, ptr) = (
        ctx.i32_type(),
        ctx.i64_type(),
        ctx.ptr_type(AddressSpace::default()),
    );
    let ty = i64t.fn_type(
        &[
            ptr.into(),
            i64t.into(),
            i32t.into(),
            i64t.into(),
            i32t.into(),
            i64t.into(),
        ],
        false,
    );
    let sizer = module.add_function(SIZER, ty, Some(Linkage::Internal));
    let param = |i| sizer.get_nth_param(i).expect("six parameters");
    let handle = param(0).into_pointer_value();
    let grid_xy = param(1).into_int_value();
    let grid_z = param(2).into_int_value();
    let block_xy = param(3).into_int_value();
    let block_z = param(4).into_int_value();
    let shared = param(5).into_int_value();
    let b = ctx.create_builder();
    let mut test = ctx.append_basic_block(sizer, "entry");
    for k in kernels {
        b.position_at_end(test);
        let this = ctx.append_basic_block(sizer, "kernel");
        let next = ctx.append_basic_block(sizer, "next");
        let same = b.build_int_compare(IntPredicate::EQ, handle, k.handle, "")?;
        b.build_conditional_branch(same, this, next)?;
        b.position_at_end(this);
        let threads = dim3_count(&b, block_xy, block_z)?;
        let total = match k.sized {
            Some(bytes) => {
                let want = b.build_int_mul(threads, i64t.const_int(bytes.per_thread, false), "")?;
                let lines = umin(&b, want, i64t.const_int(bytes.most, false))?;
                // The kernel uses no dynamic shared memory of its own: the
                // buffer may take what the launch gives anyway.
                umax(&b, lines, shared)?
            }
            None => shared,
        };
        if let Some(fit) = fit {
            let args = [
                handle.into(),
                grid_xy.into(),
                grid_z.into(),
                threads.into(),
                total.into(),
                i64t.const_int(k.static_bytes, false).into(),
                carveout::cache_for(module, k.name).into(),
            ];
            b.build_call(fit, &args, "")?;
        }
        b.build_return(Some(&total))?;
        test = next;
    }
    b.position_at_end(test);
    b.build_return(Some(&i64t.const_all_ones()))?;
    Ok(sizer)
}

/// Registers `sizer` and `kernels`' handles and names with the S-L1
/// runtime when the program starts, if it is linked in.
pub fn register<'ctx>(
    module: &Module<'ctx>,
    sizer: FunctionValue<'ctx>,
    kernels: &[ModuleKernel<'ctx, '_>],
) -> Result<(), BuilderError> {
    let ctx = module.get_context();
    let (i64t, ptr) = (ctx.i64_type(), ctx.ptr_type(AddressSpace::default()));
    let pair = ctx.struct_type(&[ptr.into(), ptr.into()], false);
    let entries: Vec<_> = kernels
        .iter()
        .map(|k| {
            let text = ctx.const_string(k.name.as_bytes(), true);
            let name = module.add_global(text.get_type(), None, "sl1.kernel.name");
            name.set_linkage(Linkage::Private);
            name.set_constant(true);
            name.set_initializer(&text);
            pair.const_named_struct(&[k.handle.into(), name.as_pointer_value().into()])
        })
        .collect();
    let table_ty = pair.array_type(entries.len() as u32);
    let table = module.add_global(table_ty, None, "sl1.launch.kernels");
    table.set_linkage(Linkage::Private);
    table.set_constant(true);
    table.set_initializer(&pair.const_array(&entries));
    let register = module.get_function(REGISTER).unwrap_or_else(|| {
        let ty = ctx
            .void_type()
            .fn_type(&[ptr.into(), ptr.into(), i64t.into()], false);
        module.add_function(REGISTER, ty, Some(Linkage::ExternalWeak))
    });
    let ctor = module.add_function(
        REGISTER_CTOR,
        ctx.void_type().fn_type(&[], false),
        Some(Linkage::Internal),
    );
    let b = ctx.create_builder();
    let entry = ctx.append_basic_block(ctor, "entry");
    let call = ctx.append_basic_block(ctor, "register");
    let done = ctx.append_basic_block(ctor, "done");
    b.position_at_end(entry);
    let linked: IntValue<'ctx> =
        b.build_is_not_null(register.as_global_value().as_pointer_value(), "")?;
    b.build_conditional_branch(linked, call, done)?;
    b.position_at_end(call);
    let count = i64t.const_int(entries.len() as u64, false);
    b.build_call(
        register,
        &[
            sizer.as_global_value().as_pointer_value().into(),
            table.as_pointer_value().into(),
            count.into(),
        ],
        "",
    )?;
    b.build_unconditional_branch(done)?;
    b.position_at_end(done);
    b.build_return(None)?;
    crate::llvm::build::append_global_ctor(module, ctor, 65535);
    Ok(())
}

//! Device tuning: an atomic add to one address made once per warp.
//!
//! `if (words) atomicAdd(&totals[0], words)` at the end of every thread
//! sends one atomic per thread to the same address, and the memory system
//! runs them one at a time: on the H100 `wc` took 0.2 ms with 34 K
//! threads and 3.2 ms with 2.1 M (about 0.75 ns per atomic). Where the
//! address is the same for the whole warp (made of kernel arguments,
//! constants and block coordinates only) and the atomic's result is not
//! used, the warp's active threads add their values together (`redux.sync`)
//! and the lowest of them makes the one atomic: under relaxed ordering that
//! is the order in which all of them ran at once, and an integer sum wraps
//! as the separate adds did. Kernels with fences keep their atomics
//! (`is_fence`).
//!
//! Each atomic gets a small `alwaysinline` function of its own (the vote,
//! the sum, the leader's atomic cloned from the original), inlined at once
//! (LLVM's inliner splits the block).

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::context::ContextRef;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::{Linkage, Module};
use inkwell::values::{
    AnyValue, BasicMetadataValueEnum, FunctionValue, InstructionOpcode, InstructionValue, IntValue,
};
use inkwell::IntPredicate;
use inkwell::{AtomicOrdering, AtomicRMWBinOp};

use crate::analysis::warp_uniform::is_warp_uniform;
use crate::llvm::build;
use crate::llvm::ir::Value;

/// Oldest architecture with `redux.sync` (sm_80).
const LEAST_SM: u32 = 80;

/// Rewrites every eligible atomic add in the kernels of `module`; returns
/// how many.
pub fn aggregate_atomics(module: &Module<'_>) -> usize {
    let mut sites = Vec::new();
    for kernel in crate::analysis::find_kernels(module) {
        if !has_redux(kernel) {
            continue;
        }
        let instructions: Vec<InstructionValue<'_>> = kernel
            .get_basic_blocks()
            .into_iter()
            .flat_map(|b| b.get_instructions())
            .collect();
        if instructions.iter().any(|i| is_fence(*i)) {
            continue;
        }
        sites.extend(instructions.into_iter().filter(|i| is_uniform_add(*i)));
    }
    for (n, atomic) in sites.iter().enumerate() {
        route_through_warp(module, *atomic, n);
    }
    if !sites.is_empty() {
        build::run_module_passes(module, c"always-inline");
    }
    sites.len()
}

/// Whether `kernel` is compiled for an architecture with `redux.sync`.
fn has_redux(kernel: FunctionValue<'_>) -> bool {
    kernel
        .get_string_attribute(AttributeLoc::Function, "target-cpu")
        .and_then(|a| {
            a.get_string_value()
                .to_str()
                .ok()?
                .strip_prefix("sm_")?
                .trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .parse::<u32>()
                .ok()
        })
        .is_some_and(|sm| sm >= LEAST_SM)
}

/// A fence (`__threadfence()` and its kin). A kernel with one may order
/// its threads' writes before their atomics for others to see, which the
/// warp's single atomic would not do for the threads that make none: its
/// atomics are left as they are.
fn is_fence(i: InstructionValue<'_>) -> bool {
    i.get_opcode() == InstructionOpcode::Fence
        || (i.get_opcode() == InstructionOpcode::Call
            && Value::of(i)
                .called_function_name()
                .is_some_and(|name| name.contains("membar") || name.contains("fence")))
}

/// A non-volatile 32- or 64-bit integer atomic add whose result is unused,
/// to an address the same for a whole warp. CUDA's `atomicAdd` is relaxed
/// (clang marks it `seq_cst`, and NVPTX emits a relaxed `atom` for both).
fn is_uniform_add(i: InstructionValue<'_>) -> bool {
    if i.get_opcode() != InstructionOpcode::AtomicRMW
        || i.get_atomic_rmw_bin_op() != Some(AtomicRMWBinOp::Add)
        || i.get_volatile().unwrap_or(true)
        || !matches!(
            i.get_atomic_ordering(),
            Ok(AtomicOrdering::Monotonic | AtomicOrdering::SequentiallyConsistent)
        )
        || Value::of(i).has_uses()
    {
        return false;
    }
    let bits = Value::of(i).operand(1).and_then(Value::integer_bits);
    if !matches!(bits, Some(32 | 64)) {
        return false;
    }
    Value::of(i).operand(0).is_some_and(is_warp_uniform)
}

/// Replaces `atomic` by a call of a function of its own that makes it once
/// for the warp's active threads.
fn route_through_warp<'ctx>(module: &Module<'ctx>, atomic: InstructionValue<'ctx>, n: usize) {
    let ctx = module.get_context();
    let address = atomic
        .get_operand(0)
        .and_then(|o| o.value())
        .expect("address");
    let value = atomic
        .get_operand(1)
        .and_then(|o| o.value())
        .expect("value");
    let (pointer_t, value_t) = (address.get_type(), value.get_type());
    let fn_t = ctx
        .void_type()
        .fn_type(&[pointer_t.into(), value_t.into()], false);
    let helper = module.add_function(&format!("sl1.warp.add.{n}"), fn_t, Some(Linkage::Internal));
    let inline = Attribute::get_named_enum_kind_id("alwaysinline");
    helper.add_attribute(AttributeLoc::Function, ctx.create_enum_attribute(inline, 0));
    let (entry, leader, done) = (
        ctx.append_basic_block(helper, "entry"),
        ctx.append_basic_block(helper, "leader"),
        ctx.append_basic_block(helper, "done"),
    );
    let b = ctx.create_builder();
    b.position_at_end(entry);
    let mask = nvvm(module, &b, "llvm.nvvm.activemask", &[]);
    let own = helper.get_nth_param(1).expect("value").into_int_value();
    let sum = warp_sum(module, &ctx, &b, own, mask);
    let below = nvvm(module, &b, "llvm.nvvm.read.ptx.sreg.lanemask.lt", &[]);
    let lower = b.build_and(mask, below, "").expect("and");
    let zero = ctx.i32_type().const_zero();
    let lowest = b
        .build_int_compare(IntPredicate::EQ, lower, zero, "sl1.warp.lowest")
        .expect("icmp");
    b.build_conditional_branch(lowest, leader, done)
        .expect("br");
    b.position_at_end(leader);
    let once = atomic.explicit_clone();
    b.insert_instruction(&once, None);
    let pointer = helper.get_nth_param(0).expect("address");
    assert!(once.set_operand(0, pointer) && once.set_operand(1, sum));
    b.build_unconditional_branch(done).expect("br");
    b.position_at_end(done);
    b.build_return(None).expect("ret");

    let at = ctx.create_builder();
    at.position_before(&atomic);
    at.build_call(helper, &[address.into(), value.into()], "")
        .expect("call");
    atomic.erase_from_basic_block();
}

/// The sum of `own` over the threads of `mask`, in `own`'s type: one
/// `redux.sync` for 32 bits; for 64, the high words and the low words'
/// two halves apart (each half's sum fits 32 bits), put back together.
fn warp_sum<'ctx>(
    module: &Module<'ctx>,
    ctx: &ContextRef<'ctx>,
    b: &inkwell::builder::Builder<'ctx>,
    own: IntValue<'ctx>,
    mask: IntValue<'ctx>,
) -> IntValue<'ctx> {
    let i32t = ctx.i32_type();
    let redux = |v: IntValue<'ctx>| nvvm(module, b, "llvm.nvvm.redux.sync.add", &[v, mask]);
    if own.get_type().get_bit_width() == 32 {
        return redux(own);
    }
    let i64t = own.get_type();
    let part = |shift: u64, keep: u64| {
        let shifted = b
            .build_right_shift(own, i64t.const_int(shift, false), false, "")
            .expect("lshr");
        let kept = b
            .build_and(shifted, i64t.const_int(keep, false), "")
            .expect("and");
        let narrow = b.build_int_truncate(kept, i32t, "").expect("trunc");
        let sum = redux(narrow);
        let wide = b.build_int_z_extend(sum, i64t, "").expect("zext");
        b.build_left_shift(wide, i64t.const_int(shift, false), "")
            .expect("shl")
    };
    let high = part(32, u64::from(u32::MAX));
    let middle = part(16, 0xffff);
    let low = part(0, 0xffff);
    let upper = b.build_int_add(high, middle, "").expect("add");
    b.build_int_add(upper, low, "sl1.warp.sum").expect("add")
}

/// Calls the NVVM intrinsic `name` (not overloaded) with `args`.
fn nvvm<'ctx>(
    module: &Module<'ctx>,
    b: &inkwell::builder::Builder<'ctx>,
    name: &str,
    args: &[IntValue<'ctx>],
) -> IntValue<'ctx> {
    let f = Intrinsic::find(name)
        .and_then(|i| i.get_declaration(module, &[]))
        .unwrap_or_else(|| panic!("LLVM lacks {name}"));
    let args: Vec<BasicMetadataValueEnum<'ctx>> = args.iter().map(|a| (*a).into()).collect();
    b.build_call(f, &args, "")
        .expect("call")
        .as_any_value_enum()
        .into_int_value()
}

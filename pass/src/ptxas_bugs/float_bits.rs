//! Keeps the bits of floating-point values out of narrow stores: where a
//! float's or double's bits (a `bitcast` to integers) reach a `trunc` or
//! an `extractelement`, directly or through phis, selects and freezes,
//! that a store stores or a call takes, they pass through `xor.bN r, x, 0`
//! first, inline PTX that LLVM does not
//! fold, so the register a narrow store or call argument takes was written
//! by an integer operation (on the H100 ptxas then keeps its low bits:
//! `testdata/toolchain/`). A floating-point store below its size's
//! alignment, which NVPTX splits into narrower stores of the same
//! register, stores the guarded bits instead.

use inkwell::builder::{Builder, BuilderError};
use inkwell::module::Module;
use inkwell::types::{AnyTypeEnum, BasicTypeEnum, FloatType, IntType};
use inkwell::values::{
    AnyValueEnum, BasicValue, BasicValueEnum, InstructionOpcode, InstructionValue,
};
use inkwell::InlineAsmDialect;

use crate::llvm::ir::Value;

/// Guards every such use of floating-point bits in `module`'s functions;
/// returns how many values it guarded.
pub fn keep_float_bits_out_of_narrow_stores(module: &Module<'_>) -> usize {
    let builder = module.get_context().create_builder();
    let mut guarded = 0;
    for function in module.get_functions() {
        for block in function.get_basic_blocks() {
            let mut next = block.get_first_instruction();
            while let Some(inst) = next {
                next = inst.get_next_instruction();
                let done = match inst.get_opcode() {
                    InstructionOpcode::BitCast if float_bits_cut(inst) => {
                        guard_bitcast(&builder, inst)
                    }
                    InstructionOpcode::Store if under_aligned_float(inst) => {
                        guard_store(&builder, inst)
                    }
                    _ => Ok(false),
                };
                // A builder error leaves the instruction as it was.
                guarded += usize::from(done.unwrap_or(false));
            }
        }
    }
    guarded
}

/// The width in bits of `f` when it is a type NVPTX keeps in one
/// register (half, bfloat, float, double).
fn float_width(f: FloatType<'_>) -> Option<u32> {
    let ctx = f.get_context();
    [
        (ctx.f16_type(), 16),
        (ctx.bf16_type(), 16),
        (ctx.f32_type(), 32),
        (ctx.f64_type(), 64),
    ]
    .into_iter()
    .find_map(|(t, bits)| (t == f).then_some(bits))
}

/// The integer type as wide as `f`, whose width is `bits`.
fn int_like(f: FloatType<'_>, bits: u32) -> IntType<'_> {
    let ctx = f.get_context();
    match bits {
        16 => ctx.i16_type(),
        32 => ctx.i32_type(),
        _ => ctx.i64_type(),
    }
}

/// The instructions that use `v`.
fn users(v: InstructionValue<'_>) -> Vec<InstructionValue<'_>> {
    let mut users = Vec::new();
    let mut next = v.get_first_use();
    while let Some(use_) = next {
        next = use_.get_next_use();
        let user = match use_.get_user() {
            AnyValueEnum::InstructionValue(i) => Some(i),
            other => BasicValueEnum::try_from(other)
                .ok()
                .and_then(|b| b.as_instruction_value()),
        };
        users.extend(user);
    }
    users
}

/// `inst` (a bitcast) takes a scalar float's bits to integers whose uses
/// cut them.
fn float_bits_cut(inst: InstructionValue<'_>) -> bool {
    let Some(BasicValueEnum::FloatValue(_)) = inst.get_operand(0).and_then(|o| o.value()) else {
        return false;
    };
    let ty = inst.get_type();
    let integers = match ty {
        AnyTypeEnum::IntType(_) => true,
        AnyTypeEnum::VectorType(v) => v.get_element_type().is_int_type(),
        _ => false,
    };
    integers && reaches_a_cut(inst)
}

/// Whether a use of `start`, directly or through phis, selects, freezes
/// and bitcasts, is a `trunc` or an `extractelement` that is stored or
/// passed to a call.
fn reaches_a_cut(start: InstructionValue<'_>) -> bool {
    let mut seen = vec![start];
    let mut work = vec![start];
    while let Some(v) = work.pop() {
        for user in users(v) {
            match user.get_opcode() {
                InstructionOpcode::Trunc | InstructionOpcode::ExtractElement
                    if stored_or_passed(user) =>
                {
                    return true
                }
                InstructionOpcode::Phi
                | InstructionOpcode::Select
                | InstructionOpcode::Freeze
                | InstructionOpcode::BitCast
                    if !seen.contains(&user) =>
                {
                    seen.push(user);
                    work.push(user);
                }
                _ => {}
            }
        }
    }
    false
}

/// Whether `cut` (a trunc or extractelement) is the value a store stores
/// or an argument of a call to a function (not an intrinsic): NVPTX folds
/// such a cut into the store or the call's parameter store, which takes
/// the wider register. A cut anything else uses becomes an integer
/// instruction of its own (`cvt.u32.u64`), which ptxas handles right (the
/// halves of a double a warp shuffle moves).
fn stored_or_passed(cut: InstructionValue<'_>) -> bool {
    users(cut).into_iter().any(|user| match user.get_opcode() {
        InstructionOpcode::Store => {
            user.get_operand(0).and_then(|o| o.value()).map(Value::of) == Some(Value::of(cut))
        }
        InstructionOpcode::Call => !calls_an_intrinsic(user),
        _ => false,
    })
}

/// Whether `call` calls an LLVM intrinsic (`llvm.*`).
fn calls_an_intrinsic(call: InstructionValue<'_>) -> bool {
    let callee = call
        .get_operand(call.get_num_operands() - 1)
        .and_then(|o| o.value());
    match callee {
        Some(BasicValueEnum::PointerValue(p)) => p
            .get_name()
            .to_str()
            .is_ok_and(|name| name.starts_with("llvm.")),
        _ => false,
    }
}

/// `inst` stores a scalar float at an alignment below its size.
fn under_aligned_float(inst: InstructionValue<'_>) -> bool {
    let Some(BasicValueEnum::FloatValue(v)) = inst.get_operand(0).and_then(|o| o.value()) else {
        return false;
    };
    let Some(bits) = float_width(v.get_type()) else {
        return false;
    };
    inst.get_alignment().is_ok_and(|align| align * 8 < bits)
}

/// `x` (an integer of 16, 32 or 64 bits) through `xor.bN x, x, 0`.
fn xor_zero<'ctx>(
    b: &Builder<'ctx>,
    x: inkwell::values::IntValue<'ctx>,
) -> Result<inkwell::values::IntValue<'ctx>, BuilderError> {
    let ty: IntType<'ctx> = x.get_type();
    let (reg, bits) = match ty.get_bit_width() {
        16 => ("h", 16),
        32 => ("r", 32),
        _ => ("l", 64),
    };
    let fty = ty.fn_type(&[ty.into()], false);
    let asm = ty.get_context().create_inline_asm(
        fty,
        format!("xor.b{bits} $0, $1, 0;"),
        format!("={reg},{reg}"),
        false,
        false,
        Some(InlineAsmDialect::ATT),
        false,
    );
    let call = b.build_indirect_call(fty, asm, &[x.into()], "sl1.float.bits")?;
    match call.try_as_basic_value() {
        inkwell::values::ValueKind::Basic(v) => Ok(v.into_int_value()),
        inkwell::values::ValueKind::Instruction(_) => unreachable!("the asm returns its integer"),
    }
}

/// The bits of `inst`'s operand 0, a float of a width `float_width`
/// knows, through `xor_zero`, built where `b` stands; `None` for another
/// operand.
fn guarded_bits<'ctx>(
    b: &Builder<'ctx>,
    inst: InstructionValue<'ctx>,
) -> Result<Option<inkwell::values::IntValue<'ctx>>, BuilderError> {
    let Some(BasicValueEnum::FloatValue(x)) = inst.get_operand(0).and_then(|o| o.value()) else {
        return Ok(None);
    };
    let Some(bits) = float_width(x.get_type()) else {
        return Ok(None);
    };
    let raw = b.build_bit_cast(x, int_like(x.get_type(), bits), "")?;
    xor_zero(b, raw.into_int_value()).map(Some)
}

/// Replaces `inst`, a bitcast of a float to integers, by the float's
/// guarded bits (then cast to `inst`'s type).
fn guard_bitcast(b: &Builder<'_>, inst: InstructionValue<'_>) -> Result<bool, BuilderError> {
    let Some(next) = inst.get_next_instruction() else {
        return Ok(false);
    };
    b.position_before(&next);
    let Some(safe) = guarded_bits(b, inst)? else {
        return Ok(false);
    };
    let ty = BasicTypeEnum::try_from(inst.get_type()).expect("a bitcast's type is basic");
    let value = if ty == safe.get_type().into() {
        safe.as_basic_value_enum()
    } else {
        b.build_bit_cast(safe, ty, "")?
    };
    Value::of(inst).replace_all_uses_with(Value::of(value));
    Value::of(inst).erase();
    Ok(true)
}

/// Makes `inst`, an under-aligned store of a float, store its guarded bits.
fn guard_store(b: &Builder<'_>, inst: InstructionValue<'_>) -> Result<bool, BuilderError> {
    b.position_before(&inst);
    Ok(match guarded_bits(b, inst)? {
        Some(safe) => inst.set_operand(0, safe),
        None => false,
    })
}

//! Memory accesses of a kernel and the data structure (pointer argument) each one
//! goes through.

use std::collections::HashSet;

use crate::llvm::ir::{Function, Opcode, Value, ValueKind};

/// NVPTX address spaces (the NVPTX backend's numbering).
pub const ADDRSPACE_SHARED: u32 = 3;
pub const ADDRSPACE_LOCAL: u32 = 5;
pub const ADDRSPACE_CONST: u32 = 4;

pub use sl1_core::report::AccessKind;

/// Where an address comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// Kernel pointer argument `index`: a data structure.
    Argument(u32),
    /// The kernel's own `__shared__` memory.
    Shared,
    /// Thread-local memory (allocas, local address space).
    Local,
    /// A module global in global or constant memory.
    Global,
    /// Not traceable to one root: the reason says why.
    Unknown(&'static str),
    /// Based on several roots (e.g. a select between two arguments); lists the
    /// arguments among them.
    Mixed(Vec<u32>),
}

impl Base {
    /// Whether an access with this base may touch argument `index`.
    pub fn may_touch_argument(&self, index: u32) -> bool {
        match self {
            Base::Argument(i) => *i == index,
            Base::Mixed(args) => args.contains(&index),
            _ => false,
        }
    }
}

/// One memory access of the kernel.
#[derive(Clone, Debug)]
pub struct Access<'m> {
    pub inst: Value<'m>,
    pub kind: AccessKind,
    pub base: Base,
    /// Bytes accessed (0 for ranges of unknown size).
    pub size: u64,
    pub volatile: bool,
    /// Index of the block holding the access.
    pub block: usize,
}

impl<'m> Access<'m> {
    /// The address operand: a store's second, every other access's first.
    pub fn pointer(&self) -> Option<Value<'m>> {
        self.inst
            .operand(if self.kind.address_is_second() { 1 } else { 0 })
    }
}

/// Follows `pointer` back through address arithmetic to its roots.
pub fn trace_base(pointer: Value<'_>) -> Base {
    let mut roots: HashSet<Base> = HashSet::new();
    let mut seen = HashSet::new();
    let mut work = vec![pointer];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        match v.kind() {
            ValueKind::Argument { index } => {
                roots.insert(Base::Argument(index));
            }
            ValueKind::GlobalVariable { address_space } => {
                roots.insert(match address_space {
                    ADDRSPACE_SHARED => Base::Shared,
                    ADDRSPACE_LOCAL => Base::Local,
                    _ => Base::Global,
                });
            }
            ValueKind::ConstantNull => {
                roots.insert(Base::Unknown("null pointer"));
            }
            ValueKind::Instruction(op) | ValueKind::ConstantExpr(op) => match op {
                Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast => {
                    work.extend(v.operand(0))
                }
                Opcode::LLVMPHI => work.extend(v.incoming()),
                Opcode::LLVMSelect => {
                    work.extend([v.operand(1), v.operand(2)].into_iter().flatten())
                }
                Opcode::LLVMAlloca => {
                    roots.insert(Base::Local);
                }
                Opcode::LLVMLoad => {
                    roots.insert(Base::Unknown("address loaded from memory"));
                }
                Opcode::LLVMCall => {
                    roots.insert(Base::Unknown("address returned by a call"));
                }
                Opcode::LLVMIntToPtr => {
                    roots.insert(Base::Unknown("address computed from an integer"));
                }
                _ => {
                    roots.insert(Base::Unknown("address from an unsupported instruction"));
                }
            },
            _ => {
                roots.insert(Base::Unknown("address of an unsupported kind"));
            }
        }
    }
    // An address space on the pointer itself settles shared/local accesses
    // whose roots are otherwise unknown.
    match pointer.pointer_address_space() {
        Some(ADDRSPACE_SHARED) => return Base::Shared,
        Some(ADDRSPACE_LOCAL) => return Base::Local,
        _ => {}
    }
    let mut roots: Vec<Base> = roots.into_iter().collect();
    match roots.len() {
        0 => Base::Unknown("no root found"),
        1 => roots.pop().expect("one root"),
        _ => {
            let mut args: Vec<u32> = roots
                .iter()
                .filter_map(|r| match r {
                    Base::Argument(i) => Some(*i),
                    _ => None,
                })
                .collect();
            args.sort_unstable();
            Base::Mixed(args)
        }
    }
}

/// Classifies `inst` as memory accesses: each access kind with the pointer it
/// goes through (a memcpy reads one range and writes another).
fn memory_operands<'m>(inst: Value<'m>) -> Vec<(AccessKind, Value<'m>)> {
    let with = |kind, i| inst.operand(i).map(|p| (kind, p)).into_iter().collect();
    match inst.opcode() {
        Some(Opcode::LLVMLoad) if inst.is_atomic_load_or_store() => with(AccessKind::AtomicLoad, 0),
        Some(Opcode::LLVMLoad) => with(AccessKind::Load, 0),
        Some(Opcode::LLVMStore) if inst.is_atomic_load_or_store() => {
            with(AccessKind::AtomicStore, 1)
        }
        Some(Opcode::LLVMStore) => with(AccessKind::Store, 1),
        Some(Opcode::LLVMAtomicRMW) => with(AccessKind::AtomicRmw, 0),
        Some(Opcode::LLVMAtomicCmpXchg) => with(AccessKind::CmpXchg, 0),
        Some(Opcode::LLVMCall) => match inst.called_function_name().as_deref() {
            Some(name) if name.starts_with("llvm.memset") => with(AccessKind::RangeWrite, 0),
            Some(name) if name.starts_with("llvm.memcpy") || name.starts_with("llvm.memmove") => {
                let mut both: Vec<_> = with(AccessKind::RangeWrite, 0);
                both.extend(with(AccessKind::RangeRead, 1));
                both
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// Bytes a load, store or atomic moves (0 for ranges).
fn access_size(function: Function<'_>, inst: Value<'_>, kind: AccessKind) -> u64 {
    match kind {
        AccessKind::Load | AccessKind::AtomicLoad | AccessKind::AtomicRmw => {
            function.store_size(inst)
        }
        AccessKind::Store | AccessKind::AtomicStore => {
            inst.operand(0).map_or(0, |v| function.store_size(v))
        }
        AccessKind::CmpXchg => inst.operand(1).map_or(0, |v| function.store_size(v)),
        AccessKind::RangeRead | AccessKind::RangeWrite => 0,
    }
}

/// Every memory access of `function`, in block order. `blocks` are the
/// function's blocks in the order whose indices the result refers to.
pub fn collect_accesses<'m>(
    function: Function<'m>,
    blocks: &[crate::llvm::ir::Block<'m>],
) -> Vec<Access<'m>> {
    let mut out = Vec::new();
    for (block_index, block) in blocks.iter().enumerate() {
        for inst in block.instructions() {
            for (kind, pointer) in memory_operands(inst) {
                out.push(Access {
                    inst,
                    kind,
                    base: trace_base(pointer),
                    size: access_size(function, inst, kind),
                    volatile: inst.is_volatile(),
                    block: block_index,
                });
            }
        }
    }
    out
}
